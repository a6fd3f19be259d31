import { chmodSync } from 'node:fs';
import { tempDir } from '@agent-tools/test-utils';
import { describe, expect, it } from 'vitest';
import { dartAdapter } from '../src/adapters/dart.js';
import { debugpyAdapter } from '../src/adapters/debugpy.js';
import { DEBUGPY_ADAPTER_MAIN } from '../src/adapters/debugpy-launcher.js';
import { delveAdapter } from '../src/adapters/delve.js';
import { lldbAdapter } from '../src/adapters/lldb.js';
import { debugRig, fakeAdapter } from './helpers.js';

/** A folder of fake executables (shell scripts) to put on PATH. */
function binDir(scripts: Record<string, string>) {
  const dir = tempDir(Object.fromEntries(Object.entries(scripts).map(([name, body]) => [name, `#!/bin/sh\n${body}\n`])));
  for (const name of Object.keys(scripts)) chmodSync(dir.join(name), 0o755);
  return dir;
}

describe('adapter lookup', () => {
  it('lldb takes Debian\'s versioned names: lldb-dap before lldb-dap-NN before lldb-vscode-NN, newest first', async () => {
    using bin = binDir({ 'lldb-vscode-14': 'exit 0', 'lldb-vscode-16': 'exit 0' });
    const lldb = lldbAdapter({ llvmDirs: false });
    const ctx = { root: bin.path, cwd: bin.path, env: { PATH: bin.path } };
    expect(await lldb.locate(ctx)).toMatchObject({ found: true, command: { command: bin.join('lldb-vscode-16') } });
    bin.write({ 'lldb-dap-19': '#!/bin/sh\n' });
    chmodSync(bin.join('lldb-dap-19'), 0o755);
    expect(await lldb.locate(ctx)).toMatchObject({ found: true, command: { command: bin.join('lldb-dap-19') } });
    bin.write({ 'lldb-dap': '#!/bin/sh\n' });
    chmodSync(bin.join('lldb-dap'), 0o755);
    expect(await lldb.locate(ctx)).toMatchObject({ found: true, command: { command: bin.join('lldb-dap') } });
  });

  it('lldb says where it looked when there is none', async () => {
    using empty = tempDir();
    const result = await lldbAdapter({ llvmDirs: false }).locate({ root: empty.path, cwd: empty.path, env: { PATH: empty.path } });
    expect(result).toEqual({
      found: false,
      reason:
        'no lldb-dap, lldb-dap-NN, lldb-vscode or lldb-vscode-NN on PATH or in /usr/lib/llvm-*/bin (apt install lldb-19 provides lldb-dap-19)',
    });
  });

  it('debugpy prefers the project .venv interpreter over PATH when it has debugpy', async () => {
    using project = tempDir({ '.venv/bin/python3': '#!/bin/sh\necho 9.9.9\n' });
    chmodSync(project.join('.venv/bin/python3'), 0o755);
    const result = await debugpyAdapter().locate({ root: project.path, cwd: project.path, env: { PATH: '/usr/bin' } });
    expect(result).toMatchObject({
      found: true,
      command: { command: project.join('.venv/bin/python3'), args: ['-c', DEBUGPY_ADAPTER_MAIN] },
      summary: '.venv/bin/python3 -m debugpy.adapter (debugpy 9.9.9)',
      hints: { python: project.join('.venv/bin/python3') },
    });
  });

  it('debugpy runs the adapter elsewhere but still launches under the project interpreter when the venv lacks debugpy', async () => {
    using project = tempDir({ 'venv/bin/python': '#!/bin/sh\nexit 1\n' });
    chmodSync(project.join('venv/bin/python'), 0o755);
    using bin = binDir({ python3: 'exit 1' });
    const result = await debugpyAdapter().locate({ root: project.path, cwd: project.path, env: { PATH: bin.path } });
    expect(result).toMatchObject({
      found: true,
      command: { command: '/usr/bin/python3' },
      hints: { python: project.join('venv/bin/python') },
    });
    expect(result.found && result.summary).toMatch(/^\/usr\/bin\/python3 -m debugpy\.adapter \(debugpy [^)]+\)$/);
    expect(result.found && result.programNote).toBe('the program runs under venv/bin/python');
  });

  it('delve needs dlv, and says where it looked', async () => {
    using empty = tempDir();
    const result = await delveAdapter().locate({ root: empty.path, cwd: empty.path, env: { PATH: empty.path, HOME: empty.path } });
    expect(result).toEqual({ found: false, reason: 'dlv is not on PATH, in $GOPATH/bin or in ~/go/bin (apt install delve)' });
  });

  it('dart (detection only: no Dart SDK installs here) finds `dart debug_adapter` on PATH', async () => {
    using bin = binDir({ dart: 'exit 0' });
    const found = await dartAdapter().locate({ root: bin.path, cwd: bin.path, env: { PATH: bin.path } });
    expect(found).toMatchObject({ found: true, command: { command: bin.join('dart'), args: ['debug_adapter'] } });
    using empty = tempDir();
    const missing = await dartAdapter().locate({ root: empty.path, cwd: empty.path, env: { PATH: empty.path } });
    expect(missing).toMatchObject({ found: false });
  });
});

describe('hit conditions in lldb-dap\'s terms', () => {
  it('translates from-the-Nth-hit-on into its ignore count, never "0" (which it reads as never)', () => {
    const translate = lldbAdapter().hitCondition;
    const none = { withCondition: false };
    expect(translate?.({ op: '>=', count: 3 }, none)).toEqual({ text: '3' });
    expect(translate?.({ op: '>=', count: 0 }, none)).toEqual({ text: '1' });
    expect(translate?.({ op: '>', count: 0 }, none)).toEqual({ text: '1' });
    expect(translate?.({ op: '==', count: 2 }, none)).toMatchObject({ unsupported: expect.stringContaining('pass hit_condition ">= 2"') });
  });
});

describe('adapters and selection through the tool', () => {
  it('dart (detection only: no Dart SDK installs here) is usable with pubspec.yaml and a dart binary, and says which is missing otherwise', async () => {
    using bin = binDir({ dart: 'exit 0' });
    await using rig = debugRig({ 'pubspec.yaml': 'name: app\n', 'bin/main.dart': 'void main() {}\n' }, { env: { PATH: bin.path } });
    const listed = await rig.call({ action: 'adapters' });
    const dart = listed.structured.adapters.find((a: { id: string }) => a.id === 'dart');
    expect(dart).toMatchObject({ usable: true, command: `${bin.join('dart')} debug_adapter`, notes: ['root marker pubspec.yaml in the working directory'] });
    expect(listed.text).toContain('dart (Dart; launches .dart files): usable');

    await using bare = debugRig({ 'bin/main.dart': '' }, { env: { PATH: '/nonexistent' } });
    const none = await bare.call({ action: 'adapters' });
    const notUsable = none.structured.adapters.find((a: { id: string }) => a.id === 'dart');
    expect(notUsable.usable).toBe(false);
    expect(notUsable.notes).toEqual([
      'marker missing: no pubspec.yaml in the working directory or the two levels below it',
      'binary missing: dart is not on PATH, in $FLUTTER_ROOT/bin or in /usr/lib/dart/bin (install the Dart SDK)',
    ]);
    const launch = await bare.call({ action: 'launch', program: 'bin/main.dart' });
    expect(launch.isError).toBe(true);
    expect(launch.text).toContain('dart: marker missing: no pubspec.yaml between bin and the working directory (pass adapter: "dart" to launch it anyway)');
  });

  it('a missing adapter binary is one sentence with one full stop, whether or not its reason ends with one', async () => {
    // debugpy's reason ends with a full stop (it names what to install); it cannot be made to miss here, where
    // /usr/bin/python3 has debugpy, so an adapter that answers the same way stands in for it.
    for (const reason of ['no fake on PATH (install it).', 'no fake on PATH']) {
      const missing = { ...fakeAdapter('ok'), locate: async () => ({ found: false as const, reason }) };
      await using rig = debugRig({ 'fake.toml': '', 'app.fake': '' }, { adapters: [missing] });
      const clause = reason.replace(/\.$/, '');
      const chosen = await rig.call({ action: 'launch', program: 'app.fake' });
      expect(chosen.text).toBe(`No debug adapter can launch app.fake here. fake: binary missing: ${clause}.`);
      const named = await rig.call({ action: 'launch', program: 'app.fake', adapter: 'fake' });
      expect(named.text).toBe(`The fake adapter cannot start here: binary missing: ${clause}.`);
      const listed = await rig.call({ action: 'adapters' });
      const fake = listed.structured.adapters.find((a: { id: string }) => a.id === 'fake');
      expect(fake.notes).toContain(`binary missing: ${clause}`);
    }
  });

  it('lists every adapter with usable / not usable and the reason, finding markers below the working directory', async () => {
    await using rig = debugRig({ 'services/api/go.mod': 'module x\n', 'tools/setup.py': '' });
    const listed = await rig.call({ action: 'adapters' });
    expect(listed.structured.adapters.map((a: { id: string }) => a.id)).toEqual(['dart', 'debugpy', 'lldb', 'delve', 'js']);
    expect(listed.text).toContain('root marker found at services/api/go.mod: programs there can be launched');
    expect(listed.text).toContain('root marker found at tools/setup.py');
    expect(listed.text).toMatch(/lldb \(C, C\+\+, Rust and other native code; launches native executables\): not usable\n {2}runs: \S*lldb-dap\S*\n {2}marker missing/);
  });

  it('picks the adapter by file type, explains source files and unknown types, and lets adapter override the marker rule', { timeout: 30_000 }, async () => {
    await using rig = debugRig({ 'script.py': 'print("hi")\n', 'main.c': 'int main(void){return 0;}\n', 'notes.rb': '' });
    const c = await rig.call({ action: 'launch', program: 'main.c' });
    expect(c.text).toBe(
      'main.c is source code; lldb debugs the compiled executable. Build it with debug information (for C: gcc -g -O0 -o prog main.c) and launch the executable.',
    );
    const rb = await rig.call({ action: 'launch', program: 'notes.rb' });
    expect(rb.text).toBe(
      'No debug adapter launches .rb files (notes.rb). The adapters here launch: dart (.dart files); debugpy (.py files); lldb (native executables); delve (.go files, package folders); js (.js files, .mjs files, .cjs files, .ts files, .mts files, .cts files, .tsx files).',
    );
    // Naming an adapter would only trade this error for a stranger one.
    expect(rb.text).not.toContain('Pass adapter');
    const unknown = await rig.call({ action: 'launch', program: 'script.py', adapter: 'gdb' });
    expect(unknown.text).toBe('There is no adapter "gdb". Known adapters: dart, debugpy, lldb, delve, js.');
    const noMarker = await rig.call({ action: 'launch', program: 'script.py' });
    expect(noMarker.isError).toBe(true);
    expect(noMarker.text).toContain('debugpy: marker missing: no pyproject.toml, setup.py, requirements.txt between . and the working directory (pass adapter: "debugpy" to launch it anyway)');
    const forced = await rig.call({ action: 'launch', program: 'script.py', adapter: 'debugpy' });
    expect(forced.isError).toBe(false);
    expect(forced.text).toContain('The program exited with code 0.');
    expect(forced.text).toContain('hi');
  });

  it('refuses bad arguments with a sentence that says what to pass', async () => {
    await using rig = debugRig({ 'pyproject.toml': '', 'a.py': '' });
    expect((await rig.call({ action: 'launch' })).text).toBe('launch needs program: the program to run, e.g. "src/main.py".');
    expect((await rig.call({ action: 'scopes' })).text).toBe('scopes needs frame_id: a frame id from the last stop or stack answer.');
    expect((await rig.call({ action: 'attach' })).text).toBe('attach needs port: the loopback port the debuggee listens on.');
    expect((await rig.call({ action: 'breakpoints', file: 'a.py' })).text).toBe(
      'breakpoints needs lines for a.py: the 1-based line numbers to stop at, or [] to clear the file.',
    );
    const outside = await rig.call({ action: 'breakpoints', file: '../../etc/passwd', lines: [1] });
    expect(outside.isError).toBe(true);
    expect(outside.text).toContain('is outside the working directory');
    const missing = await rig.call({ action: 'launch', program: 'nope.py' });
    expect(missing.text).toContain('There is no file or directory "nope.py"');
    const noSession = await rig.call({ action: 'continue' });
    expect(noSession.text).toBe('No debug session is running in this conversation. Call launch (or attach) to start one.');
    const nothing = await rig.call({ action: 'terminate' });
    expect(nothing.isError).toBe(false);
    expect(nothing.text).toContain('nothing to terminate');
    const lines = await rig.call({ action: 'breakpoints', file: 'a.py', lines: [0] });
    expect(lines.isError).toBe(true);
  });
});
