import { execFileSync, spawn } from 'node:child_process';
import { waitDead } from '@agent-tools/test-utils';
import { describe, expect, it } from 'vitest';
import { debugRig, freePort } from './helpers.js';
import { C_APP, C_CMAKE, C_LOOP, lineOf } from './programs.js';

/** A project with a CMakeLists.txt (the lldb root marker) and `app` built from app.c with gcc -g. */
function cRig(source: string, options = {}) {
  const rig = debugRig({ 'CMakeLists.txt': C_CMAKE, 'app.c': source }, options);
  execFileSync('gcc', ['-g', '-O0', '-o', rig.dir.join('app'), rig.dir.join('app.c')]);
  return rig;
}

describe('debug with lldb-dap on C built with gcc -g (real adapter)', () => {
  it('reports verified and unverified breakpoints, inspects structs and arrays, steps, and exits with the code', { timeout: 60_000 }, async () => {
    await using rig = cRig(C_APP);
    const call = lineOf(C_APP, '@c-call');
    await rig.call({ action: 'breakpoints', file: 'app.c', lines: [call, 900] });

    const launched = await rig.call({ action: 'launch', program: 'app' });
    expect(launched.isError).toBe(false);
    expect(launched.text).toMatch(/with lldb \(\S*lldb-dap-19\)/);
    expect(launched.text).toContain(`line ${call}: verified`);
    expect(launched.text).toContain('line 900: NOT verified');
    expect(launched.text).not.toMatch(/line 900: verified/);
    expect(launched.text).toContain(`Stopped at a breakpoint in main at app.c:${call}`);
    expect(launched.text).toContain('p (point) = {x:3, y:4}');
    expect(launched.text).toContain('start 3');
    const pids = rig.pids();
    expect(pids.length).toBeGreaterThanOrEqual(2);

    const stack = await rig.call({ action: 'stack' });
    expect(stack.structured.frames[0]).toMatchObject({ name: 'main', line: call });
    const scopes = await rig.call({ action: 'scopes', frame_id: stack.structured.frames[0].id });
    const locals = scopes.structured.scopes.find((s: { name: string }) => s.name === 'Locals');
    const vars = await rig.call({ action: 'variables', reference: locals.variablesReference });
    const values = vars.structured.items.find((v: { name: string }) => v.name === 'values');
    expect(values).toMatchObject({ type: 'int[3]', children: 3 });
    const elements = await rig.call({ action: 'variables', reference: values.reference });
    expect(elements.text).toContain('[2] (int) = 3');

    const sum = await rig.call({ action: 'evaluate', expression: 'p.x + values[2]' });
    expect(sum.text).toContain('(int) = 6');

    const stepIn = await rig.call({ action: 'step_in' });
    expect(stepIn.text).toContain(`in twice at app.c:${lineOf(C_APP, '@c-twice')}`);
    expect(stepIn.text).toContain('v (int) = 4');
    const inner = await rig.call({ action: 'stack' });
    const caller = inner.structured.frames[1];
    expect(caller.name).toBe('main');
    const inCaller = await rig.call({ action: 'evaluate', expression: 'p.y * 100', frame_id: caller.id });
    expect(inCaller.text).toContain('= 400');

    const over = await rig.call({ action: 'step_over' });
    expect(over.text).toContain('r (int) = 8');
    const out = await rig.call({ action: 'step_out' });
    expect(out.text).toContain('in main at app.c');

    const done = await rig.call({ action: 'continue' });
    expect(done.text).toContain('The program exited with code 3.');
    expect(done.text).toContain('warning 11');
    expect(await waitDead(pids)).toEqual([]);
  });

  it('sends breakpoints set during a session at once, and stops there', { timeout: 60_000 }, async () => {
    await using rig = cRig(C_APP);
    await rig.call({ action: 'breakpoints', file: 'app.c', lines: [lineOf(C_APP, '@c-call')] });
    await rig.call({ action: 'launch', program: 'app' });
    const ret = lineOf(C_APP, '@c-return');
    const added = await rig.call({ action: 'breakpoints', file: 'app.c', lines: [ret] });
    expect(added.text).toContain('Sent to the running lldb session:\nBreakpoints in app.c:');
    expect(added.text).toContain(`line ${ret}: verified`);
    const next = await rig.call({ action: 'continue' });
    expect(next.text).toContain(`Stopped at a breakpoint in main at app.c:${ret}`);
    expect(next.text).toContain('t (int) = 8');
  });

  it('says a program is still running, pauses it, and says a stopped program needs no pause', { timeout: 60_000 }, async () => {
    await using rig = cRig(C_LOOP, { waitMs: 1500 });
    const launched = await rig.call({ action: 'launch', program: 'app' });
    expect(launched.text).toContain('The program is still running after 2 s (no breakpoint was hit). Call continue to keep waiting, pause');
    const stack = await rig.call({ action: 'stack' });
    expect(stack.isError).toBe(true);
    expect(stack.text).toContain('The program is running');
    const paused = await rig.call({ action: 'pause' });
    expect(paused.text).toContain('Stopped by pause');
    const again = await rig.call({ action: 'pause' });
    expect(again.isError).toBe(false);
    expect(again.text).toContain('The program is already stopped');
    const threads = await rig.call({ action: 'threads' });
    expect(threads.text).toMatch(/thread \d+: app {2}\(stopped here\)/);
    const pids = rig.pids();
    await rig.call({ action: 'terminate' });
    expect(await waitDead(pids)).toEqual([]);
  });

  it('attaches to a program under lldb-server on a port, stops at a breakpoint, and runs it to its exit', { timeout: 60_000 }, async () => {
    await using rig = cRig(C_APP);
    const port = await freePort();
    const server = spawn('lldb-server-19', ['gdbserver', `127.0.0.1:${port}`, rig.dir.join('app')], { stdio: 'ignore' });
    try {
      const call = lineOf(C_APP, '@c-call');
      await rig.call({ action: 'breakpoints', file: 'app.c', lines: [call] });
      let attached = await rig.call({ action: 'attach', port });
      // lldb-server may take a moment to listen: seconds on a loaded machine. It serves one connection, so it cannot
      // be probed first; a refused attach is tried again.
      const until = Date.now() + 30_000;
      while (attached.isError && /connect|refused/i.test(attached.text) && Date.now() < until) {
        await new Promise((resolve) => setTimeout(resolve, 200));
        attached = await rig.call({ action: 'attach', port });
      }
      expect(attached.text).toContain(`Attached lldb to the debuggee on 127.0.0.1:${port}`);
      expect(attached.text).toContain(`Stopped at a breakpoint in main at app.c:${call}`);
      expect(attached.text).toContain('p (point) = {x:3, y:4}');
      const done = await rig.call({ action: 'continue' });
      expect(done.text).toContain('The program exited with code 3.');
    } finally {
      server.kill('SIGKILL');
    }
  });
});
