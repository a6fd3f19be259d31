import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { debugRig, freePort } from './helpers.js';
import { SLEEPER_JS } from './js-programs.js';
import { lineOf } from './programs.js';

describe('attach (real js-debug, real node --inspect)', () => {
  it('attaches js-debug to node --inspect=PORT, stops at a breakpoint, and detaches leaving it running', { timeout: 90_000 }, async () => {
    await using rig = debugRig({ 'sleeper.js': SLEEPER_JS });
    const port = await freePort();
    const debuggee = spawn(process.execPath, [`--inspect=127.0.0.1:${port}`, rig.dir.join('sleeper.js')], { stdio: 'ignore' });
    try {
      const wake = lineOf(SLEEPER_JS, '@wake');
      await rig.call({ action: 'breakpoints', file: 'sleeper.js', lines: [wake] });
      // No marker here: js, which needs none, is the only adapter that can attach.
      const attached = await rig.call({ action: 'attach', port });
      expect(attached.isError, attached.text).toBe(false);
      expect(attached.text).toContain(`Attached js to the debuggee on 127.0.0.1:${port}.`);
      expect(attached.text).toContain(`line ${wake}: verified`);
      expect(attached.text).toMatch(new RegExp(`Stopped at a breakpoint in .*wake at sleeper\\.js:${wake}`));
      const value = await rig.call({ action: 'evaluate', expression: 'wakes >= 0' });
      expect(value.text).toMatch(/= true$/);
      await rig.call({ action: 'breakpoints', file: 'sleeper.js', lines: [] });
      const detached = await rig.call({ action: 'terminate' });
      expect(detached.text).toContain('Detached from js on a debuggee on port');
      await new Promise((resolve) => setTimeout(resolve, 500));
      expect(debuggee.exitCode).toBe(null);
      expect(debuggee.signalCode).toBe(null);
      // Still debuggable: a second attach works.
      await rig.call({ action: 'breakpoints', file: 'sleeper.js', lines: [wake] });
      const again = await rig.call({ action: 'attach', port });
      expect(again.text).toMatch(new RegExp(`Stopped at a breakpoint in .*wake at sleeper\\.js:${wake}`));
      await rig.call({ action: 'terminate' });
    } finally {
      debuggee.kill('SIGKILL');
    }
  });

  it('an attach to a closed port fails at once, saying what it tried and how to start a listener for that adapter', { timeout: 60_000 }, async () => {
    await using rig = debugRig({ 'pyproject.toml': '[project]\nname = "x"\n', 'app.js': 'console.log(1)\n' });
    const port = await freePort();
    const js = await rig.call({ action: 'attach', port, adapter: 'js' });
    expect(js.isError).toBe(true);
    expect(js.text).toMatch(
      new RegExp(
        `^Nothing accepts connections on 127\\.0\\.0\\.1:${port}: tried for 2(\\.\\d)? s \\(ECONNREFUSED\\)\\. To attach with js, start the program with \`node --inspect=127\\.0\\.0\\.1:PORT app\\.js\` \\(\`--inspect-brk\` to wait for the debugger before the first line\\) \\(PORT = ${port}\\), then call attach again\\.$`,
      ),
    );
    const py = await rig.call({ action: 'attach', port });
    expect(py.text).toContain(`To attach with debugpy, start the program with \`python3 -m debugpy --listen 127.0.0.1:PORT --wait-for-client app.py\` (PORT = ${port})`);
    // lldb-dap tries the port itself (it serves one connection, so it is not tried first) and says only that it failed.
    const lldb = await rig.call({ action: 'attach', port, adapter: 'lldb' });
    expect(lldb.text).toMatch(new RegExp(`^Nothing accepts connections on 127\\.0\\.0\\.1:${port}: tried for [\\d.]+ s \\(ECONNREFUSED; the lldb adapter said: .+\\)\\. To attach with lldb, start the program under \`lldb-server gdbserver 127\\.0\\.0\\.1:PORT \\./prog\``));
    expect(rig.pids()).toEqual([]);
  });
});
