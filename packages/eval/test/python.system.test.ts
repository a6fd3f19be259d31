import { spawnSync } from 'node:child_process';
import { existsSync, realpathSync } from 'node:fs';
import { resultText } from '@agent-tools/core';
import { tempDir } from '@agent-tools/test-utils';
import { PNG } from 'pngjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type EvalRun, evalRun } from './helpers.js';

// A real local Jupyter server with /usr/bin/python3's ipykernel, pandas and matplotlib (apt).
const dir = tempDir({ 'data/levels.csv': 'sku,quantity\nA1,3\nB2,10\nC3,7\n', 'sub/marker.txt': 'here\n' }, 'agent-tools-eval-py-');
let run: EvalRun;

beforeAll(() => {
  run = evalRun(dir.path);
});
afterAll(async () => {
  await run.registry.dispose();
  dir.remove();
});

describe('python cells', () => {
  it('returns the last expression and keeps variables, imports and data for the next call', async () => {
    const first = await run.cell('import math\nradius = 2\nprint("computing")\nmath.pi * radius ** 2');
    expect(first.result.isError).toBe(false);
    expect(first.text).toMatch(/^computing\nOut\[\d+\]: 12\.566370614359172$/);
    expect(first.structured).toMatchObject({ language: 'python', status: 'ok', kernel: { where: 'local', started: true } });
    const second = await run.cell('radius += 1\nround(math.pi * radius ** 2, 2)');
    expect(second.text).toMatch(/Out\[\d+\]: 28\.27$/);
    expect(second.structured.kernel?.started).toBe(false);
  });

  it('runs a cell whose description is too short or too long, using it as the label (short as given, long cut)', async () => {
    const short = await run.registry.call('eval', { code: 'print("ran")', description: 'plot' });
    expect(short.isError).toBe(false);
    expect(resultText(short)).toBe('ran');
    expect(short.structured).toMatchObject({ status: 'ok', label: 'plot' });
    const words = 'load the orders then count the rows of every region and plot them';
    const long = await run.registry.call('eval', { code: '6 * 7', description: words });
    expect(resultText(long)).toMatch(/^Out\[\d+\]: 42$/);
    expect(long.structured).toMatchObject({ status: 'ok', label: 'load the orders then count the rows of every region…' });
  });

  it('runs in the working directory', async () => {
    const answer = await run.cell('import os\nos.getcwd()');
    expect(answer.text).toContain(realpathSync(dir.path));
  });

  it('shows display() output in order with prints', async () => {
    const answer = await run.cell('print("one")\ndisplay({"k": [1, 2]})\nprint("two")\ndisplay("plain text")');
    expect(answer.text).toBe("one\n{'k': [1, 2]}\ntwo\n'plain text'");
  });

  it('renders a DataFrame as a bounded markdown table with its size', async () => {
    const answer = await run.cell('import pandas as pd\nlevels = pd.read_csv("data/levels.csv")\nlevels');
    expect(answer.text).toContain('|  | sku | quantity |');
    expect(answer.text).toContain('| 1 | B2 | 10 |');
    expect(answer.text).toContain('(DataFrame: 3 rows × 2 columns)');
    const big = await run.cell('import numpy as np\npd.DataFrame(np.arange(5000 * 40).reshape(5000, 40))');
    expect(big.text).toContain('(DataFrame: 5000 rows × 40 columns; shown: 10 rows × 10 columns)');
    expect(big.text.split('\n')[1]).toBe('|  | 0 | 1 | 2 | 3 | 4 | 5 | 6 | 7 | 8 | 9 | … |');
    expect(big.text.length).toBeLessThan(3000);
  });

  it('returns a matplotlib figure as a PNG image part, scaled down when large', async () => {
    const small = await run.cell('import matplotlib.pyplot as plt\nplt.plot([1, 3, 2])\nplt.title("levels");');
    const image = small.result.content.find((p) => p.type === 'image');
    expect(image).toMatchObject({ type: 'image', mimeType: 'image/png' });
    expect(small.text).toMatch(/\[image 1: image\/png \d+×\d+\] <Figure size/);
    const big = await run.cell('fig = plt.figure(figsize=(15, 10), dpi=100)\nplt.plot([1, 2]);');
    const part = big.result.content.find((p) => p.type === 'image');
    const decoded = PNG.sync.read(Buffer.from(part?.type === 'image' ? part.data : '', 'base64'));
    expect(Math.max(decoded.width, decoded.height)).toBe(1024);
    expect(big.text).toMatch(/scaled down from \d{4}×\d{3,4}/);
  });

  it('keeps the figures of a cell that switched to the Agg backend and called plt.show(), as the inline backend does', async () => {
    const own = { conversationId: 'agg-backend' };
    const code = 'import matplotlib\nmatplotlib.use("Agg")\nimport matplotlib.pyplot as plt\nplt.plot([1, 3, 2])\nplt.show()\nprint(matplotlib.get_backend())';
    const shown = await run.cell(code, {}, own);
    expect(shown.result.isError).toBe(false);
    expect(shown.result.content.filter((p) => p.type === 'image')).toHaveLength(1);
    expect(shown.text).toMatch(/^agg\n\[image 1: image\/png \d+×\d+\] <Figure size 640x480 with 1 Axes>$/);
    // Shown figures are closed, so the next cell does not show them again.
    const next = await run.cell('print(matplotlib.get_backend(), len(plt.get_fignums()))', {}, own);
    expect(next.text).toBe('agg 0');
  });

  it('reports an error with a traceback cut to the cell frames', async () => {
    const answer = await run.cell('def ratio(a, b):\n    return a / b\n\nratio(1, 0)');
    expect(answer.result.isError).toBe(true);
    expect(answer.structured.status).toBe('error');
    expect(answer.text).toContain('this cell, line 4');
    expect(answer.text).toContain('----> 2     return a / b');
    expect(answer.text).toMatch(/ZeroDivisionError: division by zero$/);
    expect(answer.text).not.toContain('\u001b[');
  });

  it('runs the cell that follows a failed one: the kernel never aborts it as queued behind the error', async () => {
    // ipykernel aborts execute requests that reach it while it still handles an error with stop_on_error; a cell
    // sent right after a failed one could come back "aborted", never run, with an empty answer.
    for (let i = 0; i < 25; i++) {
      const failed = await run.cell('1 / 0');
      expect(failed.result.isError).toBe(true);
      const next = await run.cell(`print("after", ${i})`);
      expect(next.text).toBe(`after ${i}`);
    }
  });

  it('caps a flood of output and counts the cut', async () => {
    const answer = await run.cell('for i in range(20000):\n    print("line", i)');
    expect(answer.text).toContain('line 0\n');
    expect(answer.text).toContain('line 19999');
    expect(answer.text).toMatch(/… \(\d+ characters cut\) …/);
    expect(answer.text.length).toBeLessThan(9000);
  });

  it('keeps stderr apart', async () => {
    const answer = await run.cell('import sys\nprint("out")\nprint("problem", file=sys.stderr)');
    expect(answer.text).toBe('out\n[stderr]\nproblem');
  });

  it('answers input() with an empty line and says why', async () => {
    const answer = await run.cell('name = input("name? ")\nrepr(name)');
    expect(answer.text).toContain("Out[");
    expect(answer.text).toContain("''");
    expect(answer.text).toContain('The cell called input()');
  });
});

describe('IPython idioms', () => {
  it('runs !cmd with variable expansion, and x = !cmd', async () => {
    const answer = await run.cell('word = "hello"\n!echo {word} from the shell\nfiles = !ls\nsorted(files)');
    expect(answer.text).toContain('hello from the shell');
    expect(answer.text).toContain("['data', 'sub']");
    expect(answer.structured.rewritten).toEqual(['!cmd', 'x = !cmd']);
  });

  it('reports a failing command status', async () => {
    const answer = await run.cell('!exit 4\n_exit_code');
    expect(answer.text).toContain('(command exited with status 4)');
    expect(answer.text).toMatch(/Out\[\d+\]: 4$/);
  });

  it('changes directory with %cd and back with %cd -', async () => {
    const into = await run.cell('%cd sub\nopen("marker.txt").read()');
    expect(into.text).toContain(`${realpathSync(dir.path)}/sub`);
    expect(into.text).toContain("'here\\n'");
    const back = await run.cell('%cd -');
    expect(back.text).toBe(realpathSync(dir.path));
  });

  it('reads idioms in a cell with Windows or old Mac line ends as Python does', async () => {
    // "%cd sub\r" was refused as "not Python", with %cd in the list of idioms it does rewrite.
    const crlf = await run.cell('%cd sub\r\nlines = !echo one\r\nprint(lines)\r\n%cd -');
    expect(crlf.result.isError).toBe(false);
    expect(crlf.text).toContain("['one']");
    const cr = await run.cell('!echo two\rprint("after")');
    expect(cr.text).toBe('two\nafter');
  });

  it('runs a %%bash cell', async () => {
    const answer = await run.cell('%%bash\nfor n in 1 2; do echo "n=$n"; done\necho oops >&2\nexit 3');
    // stdout and stderr are separate pipes: each stream keeps its order, their interleaving is not guaranteed.
    expect(answer.text.split('\n').filter((line) => line.startsWith('n='))).toEqual(['n=1', 'n=2']);
    expect(answer.text).toContain('[stderr]\noops');
    expect(answer.text).toMatch(/\(bash exited with status 3\)$/);
  });

  it('times code with %%timeit and %timeit', async () => {
    const cell = await run.cell('%%timeit -n 3 -r 2 data = list(range(100))\nsorted(data)');
    expect(cell.text).toMatch(/per loop \(mean ± std\. dev\. of 2 runs, 3 loops each\)$/);
    const line = await run.cell('%timeit -n 2 -r 2 sum(range(10))');
    expect(line.text).toMatch(/per loop \(mean ± std\. dev\. of 2 runs, 2 loops each\)$/);
  });

  it('refuses other magics without running anything', async () => {
    const answer = await run.cell('%load_ext autoreload\nx_after_magic = 1');
    expect(answer.result.isError).toBe(true);
    expect(answer.text).toContain('`%load_ext` is not supported');
    const check = await run.cell("'x_after_magic' in globals()");
    expect(check.text).toMatch(/Out\[\d+\]: False$/);
  });

  it('installs a local wheel with %pip and drops the old module from sys.modules', async () => {
    const wheel = (version: string) => buildWheel(dir, 'agent_tools_probe', version);
    const v1 = wheel('1.0');
    const installed = await run.cell(`%pip install --no-index --no-deps ${v1}\nimport agent_tools_probe\nagent_tools_probe.VERSION`);
    expect(installed.result.isError).toBe(false);
    expect(installed.text).toContain('Successfully installed agent-tools-probe-1.0');
    expect(installed.text).toMatch(/Out\[\d+\]: '1\.0'$/);
    const v2 = wheel('2.0');
    const upgraded = await run.cell(`%pip install --no-index --no-deps --upgrade ${v2}\nimport agent_tools_probe\nagent_tools_probe.VERSION`);
    expect(upgraded.text).toContain('Dropped from sys.modules, so the next import loads what pip changed: agent_tools_probe');
    expect(upgraded.text).toMatch(/Out\[\d+\]: '2\.0'$/);
    // Installed for this run only: into the run's own user base, not the system.
    const where = await run.cell('agent_tools_probe.__file__');
    expect(where.text).toContain(run.factory.stateDir);
  });
});

/** Builds a pure-Python wheel of one module (no network, no build tools: a wheel is a zip). */
function buildWheel(dir: ReturnType<typeof tempDir>, name: string, version: string): string {
  const out = dir.join(`wheels-${version}`);
  const script = `
import base64, hashlib, os, sys, zipfile
name, version, out = sys.argv[1:4]
os.makedirs(out, exist_ok=True)
dist = f"{name}-{version}.dist-info"
files = {
    f"{name}/__init__.py": f"VERSION = {version!r}\\n",
    f"{dist}/METADATA": f"Metadata-Version: 2.1\\nName: {name.replace('_', '-')}\\nVersion: {version}\\n",
    f"{dist}/WHEEL": "Wheel-Version: 1.0\\nGenerator: agent-tools-test\\nRoot-Is-Purelib: true\\nTag: py3-none-any\\n",
    f"{dist}/top_level.txt": f"{name}\\n",
}
record = []
for path, text in files.items():
    digest = base64.urlsafe_b64encode(hashlib.sha256(text.encode()).digest()).rstrip(b"=").decode()
    record.append(f"{path},sha256={digest},{len(text.encode())}")
record.append(f"{dist}/RECORD,,")
files[f"{dist}/RECORD"] = "\\n".join(record) + "\\n"
wheel = os.path.join(out, f"{name}-{version}-py3-none-any.whl")
with zipfile.ZipFile(wheel, "w") as archive:
    for path, text in files.items():
        archive.writestr(path, text)
print(wheel)
`;
  const result = spawnSync('/usr/bin/python3', ['-c', script, name, version, out], { encoding: 'utf8' });
  if (result.status !== 0) throw new Error(result.stderr);
  const wheel = result.stdout.trim();
  if (!existsSync(wheel)) throw new Error(`no wheel at ${wheel}`);
  return wheel;
}
