import { chmodSync } from 'node:fs';
import { tempDir } from '@agent-tools/test-utils';
import { describe, expect, it } from 'vitest';
import { debugRig } from './helpers.js';
import { GO_APP, GO_MOD, lineOf } from './programs.js';

/** An interpreter that cannot import debugpy: the system Python without its site packages (where Debian puts debugpy). */
const NO_DEBUGPY_PYTHON = '#!/bin/sh\nexec /usr/bin/python3 -S "$@"\n';
const WHICH = 'import sys\nprint("under", sys.executable, "no_site", sys.flags.no_site)\n';

describe('routing advice: never an adapter that cannot run the program', () => {
  it('refuses an explicit adapter that cannot run the file, naming the one that can', async () => {
    await using rig = debugRig({ 'app.js': 'console.log(1)\n', 'CMakeLists.txt': '' });
    const lldb = await rig.call({ action: 'launch', program: 'app.js', adapter: 'lldb' });
    expect(lldb.isError).toBe(true);
    expect(lldb.text).toBe(
      'The lldb adapter cannot run app.js: it launches native executables. .js files are launched by js: leave adapter out, or pass adapter: "js".',
    );
    expect(rig.pids()).toEqual([]);
  });

  it('a folder as program gets the advice of its language: a Python package, a Go package without main, a JS package', async () => {
    await using rig = debugRig({
      'pyproject.toml': '',
      'pkg/__init__.py': '',
      'pkg/__main__.py': 'print(1)\n',
      'lib/go.mod': GO_MOD,
      'lib/util.go': 'package util\n\nfunc Twice(v int) int { return v * 2 }\n',
      'web/package.json': '{"name":"web","main":"./server.js"}',
      'web/server.js': '',
    });
    const py = await rig.call({ action: 'launch', program: 'pkg' });
    expect(py.text).toBe('debugpy launches a .py file, not a folder: pass a script (this package has one: pkg/__main__.py).');
    const go = await rig.call({ action: 'launch', program: 'lib' });
    expect(go.text).toBe(
      'delve launches a package with package main, and lib has none: pass the folder that holds main (or a _test.go file to debug the package\'s tests).',
    );
    const js = await rig.call({ action: 'launch', program: 'web' });
    expect(js.text).toBe('js-debug launches a .js or .ts file, not a folder: pass the program\'s entry file (package.json names web/server.js).');
    const forced = await rig.call({ action: 'launch', program: 'pkg', adapter: 'delve' });
    expect(forced.text).toBe('debugpy launches a .py file, not a folder: pass a script (this package has one: pkg/__main__.py).');
  });
});

describe('the program\'s Python interpreter, named (real debugpy)', () => {
  it('runs under the python3 on PATH even when it lacks debugpy, and the launch answer names it', { timeout: 60_000 }, async () => {
    using bin = tempDir({ python3: NO_DEBUGPY_PYTHON });
    chmodSync(bin.join('python3'), 0o755);
    await using rig = debugRig({ 'pyproject.toml': '', 'which.py': WHICH }, { env: { ...process.env, PATH: `${bin.path}:/usr/bin:/bin` } });
    const launched = await rig.call({ action: 'launch', program: 'which.py' });
    expect(launched.isError, launched.text).toBe(false);
    expect(launched.text).toMatch(new RegExp(`The program runs under ${bin.join('python3')} \\(Python 3\\.\\d+\\.\\d+\\)\\.`));
    expect(launched.text).toContain('/usr/bin/python3 -m debugpy.adapter');
    expect(launched.text).toContain('no_site 1');
  });

  it('prefers the project\'s .venv/bin/python; an explicit python overrides it', { timeout: 60_000 }, async () => {
    await using rig = debugRig({ 'pyproject.toml': '', 'which.py': WHICH, '.venv/bin/python': NO_DEBUGPY_PYTHON });
    chmodSync(rig.dir.join('.venv/bin/python'), 0o755);
    const launched = await rig.call({ action: 'launch', program: 'which.py' });
    expect(launched.text).toContain(`The program runs under ${rig.dir.join('.venv/bin/python')} (Python 3.`);
    expect(launched.text).toContain('no_site 1');
    const explicit = await rig.call({ action: 'launch', program: 'which.py', python: '/usr/bin/python3' });
    expect(explicit.text).toMatch(/The program runs under \/usr\/bin\/python3 \(Python 3\.\d+\.\d+\), as you asked\./);
    // The launch answer names one interpreter for the program, not also the project's (which `adapters` shows).
    expect(explicit.text.match(/runs under/g)).toHaveLength(1);
    expect(explicit.text).toContain('no_site 0');
    const wrong = await rig.call({ action: 'launch', program: 'which.py', python: 'nosuch/python' });
    expect(wrong.text).toBe(
      'python nosuch/python is not an executable file: pass the interpreter\'s path (".venv/bin/python", "/usr/bin/python3") or leave python out for the project\'s own.',
    );
  });
});

describe('delve: an evaluate that calls a function says to prefix it with call (real delve)', () => {
  it('names the fix once, without delve\'s repeated prefix', { timeout: 150_000 }, async () => {
    await using rig = debugRig({ 'svc/go.mod': GO_MOD, 'svc/main.go': GO_APP });
    await rig.call({ action: 'breakpoints', file: 'svc/main.go', lines: [lineOf(GO_APP, '@go-call')] });
    const launched = await rig.call({ action: 'launch', program: 'svc/main.go' });
    expect(launched.text).toContain('Stopped at a breakpoint');
    const refused = await rig.call({ action: 'evaluate', expression: 'twice(2)' });
    expect(refused.isError).toBe(true);
    expect(refused.text).toContain("function calls not allowed without using 'call'");
    expect(refused.text).not.toMatch(/Unable to evaluate expression: Unable to evaluate expression/);
    expect(refused.text).toContain('Hint: delve runs a function only when asked: prefix the expression with `call ` (call total(xs))');
  });
});
