import { realpathSync } from 'node:fs';
import { tempDir } from '@agent-tools/test-utils';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type EvalRun, evalRun } from './helpers.js';

// eval's own JavaScript kernel (Node, zeromq), launched by a real local Jupyter server.
const dir = tempDir(
  {
    'node_modules/greeter/package.json': '{"name": "greeter", "main": "index.js"}',
    'node_modules/greeter/index.js': 'exports.greet = (name) => "hello " + name;\n',
    'lib/util.mjs': 'export const twice = (x) => x * 2;\n',
  },
  'agent-tools-eval-js-',
);
let run: EvalRun;
const js = { language: 'javascript' };

beforeAll(() => {
  run = evalRun(dir.path);
});
afterAll(async () => {
  await run.registry.dispose();
  dir.remove();
});

describe('javascript cells', () => {
  it('returns the last expression and keeps bindings across calls', async () => {
    const first = await run.cell('const base = 40\nlet { extra } = { extra: 2 }\nfunction add(a, b) { return a + b }\nconsole.log("adding")\nadd(base, extra)', js);
    expect(first.result.isError).toBe(false);
    expect(first.text).toMatch(/^adding\nOut\[\d+\]: 42$/);
    expect(first.structured).toMatchObject({ language: 'javascript', status: 'ok' });
    const second = await run.cell('class Box { constructor(v) { this.v = v } }\nnew Box(add(base, 1)).v', js);
    expect(second.text).toMatch(/Out\[\d+\]: 41$/);
  });

  it('supports top-level await', async () => {
    const answer = await run.cell('const value = await new Promise((resolve) => setTimeout(() => resolve("late"), 50))\nvalue.toUpperCase()', js);
    expect(answer.text).toMatch(/Out\[\d+\]: 'LATE'$/);
  });

  it('shows objects the way Node inspects them and display() output in order', async () => {
    const answer = await run.cell('display({ nested: { list: [1, 2] } })\nconsole.error("careful");\n[1, "two"]', js);
    expect(answer.text).toMatch(/^\{ nested: \{ list: \[ 1, 2 \] \} \}\n\[stderr\]\ncareful\nOut\[\d+\]: \[ 1, 'two' \]$/);
  });

  it('returns an image given to display() with its MIME type', async () => {
    const pixel = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==';
    const answer = await run.cell(`display(Buffer.from("${pixel}", "base64"), "image/png")`, js);
    expect(answer.result.content.find((p) => p.type === 'image')).toEqual({ type: 'image', mimeType: 'image/png', data: pixel });
    expect(answer.text).toBe('[image 1: image/png 1×1] <image/png>');
  });

  it('loads packages with require and import from the working directory', async () => {
    const answer = await run.cell(
      'const { greet } = require("greeter")\nimport { twice } from "./lib/util.mjs"\nimport path from "node:path"\n[greet("eval"), twice(21), path.basename(process.cwd())]',
      js,
    );
    expect(answer.text).toContain(`[ 'hello eval', 42, '${realpathSync(dir.path).split('/').pop()}' ]`);
  });

  it('reports errors with the stack cut to cell frames', async () => {
    const answer = await run.cell('function explode() {\n  throw new TypeError("bad input")\n}\nexplode()', js);
    expect(answer.result.isError).toBe(true);
    const count = answer.structured.executionCount;
    expect(answer.text).toBe(`TypeError: bad input\n    at explode (cell ${count}, line 2)\n    at (cell ${count}, line 4)`);
  });

  it('reports syntax errors with the line and a caret', async () => {
    const answer = await run.cell('const ok = 1\nconst broken = = 2', js);
    expect(answer.result.isError).toBe(true);
    expect(answer.text).toBe('SyntaxError: Unexpected token (line 2)\n  2 | const broken = = 2\n    |                ^');
  });

  it('survives a rejection nobody handles', async () => {
    await run.cell('Promise.reject(new Error("floating")); "still here"', js);
    const answer = await run.cell('base', js);
    expect(answer.text).toMatch(/Out\[\d+\]: 40$/);
  });

  it('does not let a cell break the kernel by redefining globals', async () => {
    // process is an accessor on Node's global: the cell must get its own binding, not the kernel's setter.
    await run.cell('const console = { log() {} }\nvar process = null', js);
    const answer = await run.cell('require("node:process").stdout.write("still captured\\n");\n[process, typeof console.log]', js);
    expect(answer.text).toMatch(/^still captured\nOut\[\d+\]: \[ null, 'function' \]$/);
    // The interrupt tests below run with these redefinitions in place.
  });

  it('interrupts a busy loop at the idle budget and keeps the bindings', async () => {
    const answer = await run.cell('while (true) {}', { ...js, timeout_seconds: 1 });
    expect(answer.result.isError).toBe(true);
    expect(answer.structured.status).toBe('timeout');
    expect(answer.text).toContain('KeyboardInterrupt');
    expect(answer.text).toContain('interrupted after 1 s without output');
    expect((await run.cell('base + 2', js)).text).toMatch(/Out\[\d+\]: 42$/);
  });

  it('interrupts a cell waiting on a promise that never settles', async () => {
    const answer = await run.cell('await new Promise(() => {})', { ...js, timeout_seconds: 1 });
    expect(answer.structured.status).toBe('timeout');
    expect((await run.cell('base', js)).text).toMatch(/Out\[\d+\]: 40$/);
  });
});
