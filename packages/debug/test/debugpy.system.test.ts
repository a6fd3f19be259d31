import { spawn } from 'node:child_process';
import { waitDead } from '@agent-tools/test-utils';
import { describe, expect, it } from 'vitest';
import { debugRig, freePort, ManualClock, SYSTEM_PYTHON } from './helpers.js';
import { lineOf, PYTHON_APP, PYTHON_SERVER } from './programs.js';

const files = { 'pyproject.toml': '[project]\nname = "fixture"\n', 'app.py': PYTHON_APP };
const CALL = lineOf(PYTHON_APP, '@py-call');

describe('debug with debugpy (real adapter)', () => {
  it('says a pause has not taken effect yet (a thread blocked in a call), not "no breakpoint was hit; call pause"', { timeout: 60_000 }, async () => {
    await using rig = debugRig({ ...files, 'sleeper.py': 'import time\ntime.sleep(600)\n' }, { waitMs: 1000, requestTimeoutMs: 2000 });
    const launched = await rig.call({ action: 'launch', program: 'sleeper.py' });
    expect(launched.text).toContain('The program is still running after 1 s');
    const paused = await rig.call({ action: 'pause' });
    expect(paused.isError).toBe(false);
    expect(paused.text).toContain(
      'The pause was requested, but the program has not stopped within 2 s: a thread blocked in a call (sleep, I/O, native code) stops only when that call returns. Call continue to keep waiting for it, or terminate.',
    );
    expect(paused.text).not.toContain('pause to stop it');
    await rig.call({ action: 'terminate' });
  });

  it('stops at a breakpoint set before launch, inspects nested data, steps, and runs to the exit code', { timeout: 60_000 }, async () => {
    await using rig = debugRig(files);
    const set = await rig.call({ action: 'breakpoints', file: 'app.py', lines: [CALL] });
    expect(set.isError).toBe(false);
    expect(set.text).toContain(`line ${CALL}: pending`);

    const launched = await rig.call({ action: 'launch', program: 'app.py' });
    expect(launched.isError).toBe(false);
    expect(launched.text).toContain(`line ${CALL}: verified`);
    expect(launched.text).toContain(`Stopped at a breakpoint in main at app.py:${CALL}`);
    expect(launched.text).toContain(`> ${CALL} |     count = total(box)  # @py-call`);
    expect(launched.text).toMatch(/box \(Box\) = .*\[reference \d+/);
    const pids = rig.pids();
    expect(pids.length).toBeGreaterThanOrEqual(2);

    const stack = await rig.call({ action: 'stack' });
    const frames = stack.structured.frames as { id: number; name: string; line: number }[];
    expect(frames.map((f) => f.name)).toEqual(['main', '<module>']);
    expect(stack.text).toContain(`main — app.py:${CALL}`);

    const scopes = await rig.call({ action: 'scopes', frame_id: frames[0]?.id });
    expect(scopes.text).toMatch(/Locals: reference \d+/);
    const locals = scopes.structured.scopes.find((s: { name: string }) => s.name === 'Locals');
    const localVars = await rig.call({ action: 'variables', reference: locals.variablesReference });
    const box = localVars.structured.items.find((v: { name: string }) => v.name === 'box');
    expect(box.type).toBe('Box');

    const boxChildren = await rig.call({ action: 'variables', reference: box.reference });
    expect(boxChildren.text).toContain("label (str) = 'crate'");
    const items = boxChildren.structured.items.find((v: { name: string }) => v.name === 'items');
    const list = await rig.call({ action: 'variables', reference: items.reference });
    const first = list.structured.items.find((v: { name: string }) => v.name === '0');
    const dict = await rig.call({ action: 'variables', reference: first.reference });
    expect(dict.text).toContain("'qty' (int) = 3");

    const stepIn = await rig.call({ action: 'step_in' });
    expect(stepIn.text).toContain(`in total at app.py:${lineOf(PYTHON_APP, '@py-total-first')}`);

    // Evaluate in the caller's frame: `box.label` exists there, `subtotal` does not.
    const inner = await rig.call({ action: 'stack' });
    const caller = inner.structured.frames[1];
    const inCaller = await rig.call({ action: 'evaluate', expression: 'box.label + "!"', frame_id: caller.id });
    expect(inCaller.text).toContain("= 'crate!'");
    const inTop = await rig.call({ action: 'evaluate', expression: 'box.items[1]["qty"] * 10' });
    expect(inTop.text).toContain('(int) = 40');

    const over = await rig.call({ action: 'step_over' });
    expect(over.text).toContain(`app.py:${lineOf(PYTHON_APP, '@py-total-loop')}`);
    expect(over.text).toContain('subtotal (int) = 0');

    const out = await rig.call({ action: 'step_out' });
    expect(out.text).toContain('in main at app.py');
    expect(out.text).not.toContain('in total');

    // debugpy stops on an uncaught exception, and a non-zero SystemExit is one.
    const exiting = await rig.call({ action: 'continue' });
    expect(exiting.text).toContain('Stopped on an exception in <module>');
    expect(exiting.text).toContain('Exception: SystemExit: 3');
    expect(exiting.text).toContain('total 7');
    const done = await rig.call({ action: 'continue' });
    expect(done.isError).toBe(false);
    expect(done.text).toContain('The program exited with code 3.');
    expect(await waitDead(pids)).toEqual([]);

    const status = await rig.call({ action: 'status' });
    expect(status.text).toContain('No debug session is running. The last one: The program exited with code 3.');
    const output = await rig.call({ action: 'output' });
    expect(output.text).toContain('total 7');
  });

  it('refuses a second launch while a session runs, naming it, and terminate kills every process', { timeout: 60_000 }, async () => {
    await using rig = debugRig(files);
    await rig.call({ action: 'breakpoints', file: 'app.py', lines: [CALL] });
    const first = await rig.call({ action: 'launch', program: 'app.py' });
    expect(first.text).toContain('Stopped at a breakpoint');
    const pids = rig.pids();

    const second = await rig.call({ action: 'launch', program: 'app.py' });
    expect(second.isError).toBe(true);
    expect(second.text).toContain('A debug session is already running in this conversation: debugpy on app.py');
    expect(second.text).toContain('Call terminate first');
    expect(rig.pids()).toEqual(pids);

    // Another conversation has its own session.
    const other = await rig.call({ action: 'status' }, 'conv-2');
    expect(other.text).toContain('No debug session is running.');

    const ended = await rig.call({ action: 'terminate' });
    expect(ended.text).toContain('Terminated debugpy on app.py');
    expect(await waitDead(pids, 5000)).toEqual([]);
    const after = await rig.call({ action: 'stack' });
    expect(after.isError).toBe(true);
    expect(after.text).toContain('No debug session is running in this conversation. The last session: The session was terminated');
  });

  it('refuses references and frame ids that were not handed out at the current stop', { timeout: 60_000 }, async () => {
    await using rig = debugRig(files);
    await rig.call({ action: 'breakpoints', file: 'app.py', lines: [CALL] });
    const launched = await rig.call({ action: 'launch', program: 'app.py' });
    const frame = launched.structured.snapshot.frame.id as number;
    const stale = await rig.call({ action: 'variables', reference: 99_999 });
    expect(stale.isError).toBe(true);
    expect(stale.text).toContain('Reference 99999 is not from the current stop');
    const staleFrame = await rig.call({ action: 'scopes', frame_id: frame + 1000 });
    expect(staleFrame.isError).toBe(true);
    expect(staleFrame.text).toContain(`Frame ${frame + 1000} is not from the current stop`);
    const running = await rig.call({ action: 'continue' });
    expect(running.text).toContain('Stopped on an exception');
  });

  it('ends a session whose adapter crashed, says so, and leaves no process behind', { timeout: 60_000 }, async () => {
    await using rig = debugRig(files);
    await rig.call({ action: 'breakpoints', file: 'app.py', lines: [CALL] });
    await rig.call({ action: 'launch', program: 'app.py' });
    const pids = rig.pids();
    const adapter = rig.supervisor.conversation('conv-1').session?.spec && pids[0];
    expect(adapter).toBeGreaterThan(0);
    process.kill(adapter as number, 'SIGKILL');

    const answer = await rig.call({ action: 'stack' });
    expect(answer.isError).toBe(true);
    expect(answer.text).toMatch(/The debug adapter died unexpectedly \(the debugpy adapter was killed by SIGKILL/);
    expect(answer.text).toContain('The session has ended and its processes were killed.');
    expect(await waitDead(pids, 5000)).toEqual([]);
    const status = await rig.call({ action: 'status' });
    expect(status.text).toContain('No debug session is running.');
  });

  it('terminates a session when its time-to-live runs out, and the next call says so (injected clock)', { timeout: 60_000 }, async () => {
    const clock = new ManualClock();
    await using rig = debugRig(files, { clock });
    await rig.call({ action: 'breakpoints', file: 'app.py', lines: [CALL] });
    await rig.call({ action: 'launch', program: 'app.py' });
    const pids = rig.pids();
    clock.advance(29 * 60_000);
    const still = await rig.call({ action: 'status' });
    expect(still.text).toContain(`Session: debugpy on app.py, started 29 min ago, stopped (breakpoint) in main at app.py:${CALL}; 60 s left`);

    clock.advance(60_000);
    const next = await rig.call({ action: 'stack' });
    expect(next.isError).toBe(true);
    expect(next.text).toContain('The debug session (debugpy) reached its 30-minute limit and was terminated');
    expect(await waitDead(pids, 5000)).toEqual([]);
    const again = await rig.call({ action: 'status' });
    expect(again.text).not.toContain('30-minute limit');
    expect(again.text).toContain('The last one: The session reached its time limit');
    const relaunch = await rig.call({ action: 'launch', program: 'app.py' });
    expect(relaunch.text).toContain('Stopped at a breakpoint');
  });

  it('attaches to a running debugpy debuggee, stops at a breakpoint, and detaches leaving it running', { timeout: 60_000 }, async () => {
    await using rig = debugRig({ 'pyproject.toml': '[project]\nname = "srv"\n', 'server.py': PYTHON_SERVER });
    const port = await freePort();
    const debuggee = spawn(SYSTEM_PYTHON, ['-m', 'debugpy', '--listen', `127.0.0.1:${port}`, '--wait-for-client', rig.dir.join('server.py')], {
      stdio: 'ignore',
    });
    try {
      const tick = lineOf(PYTHON_SERVER, '@py-tick');
      await rig.call({ action: 'breakpoints', file: 'server.py', lines: [tick] });
      const attached = await rig.call({ action: 'attach', port });
      expect(attached.isError).toBe(false);
      expect(attached.text).toContain(`Attached debugpy to the debuggee on 127.0.0.1:${port}`);
      expect(attached.text).toContain(`line ${tick}: verified`);
      expect(attached.text).toContain(`Stopped at a breakpoint in tick at server.py:${tick}`);
      const value = await rig.call({ action: 'evaluate', expression: 'n + 100' });
      expect(value.text).toContain('= 100');
      await rig.call({ action: 'breakpoints', file: 'server.py', lines: [] });
      const detached = await rig.call({ action: 'terminate' });
      expect(detached.text).toContain('Detached from debugpy on a debuggee on port');
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(debuggee.exitCode).toBe(null);
      expect(debuggee.signalCode).toBe(null);
    } finally {
      debuggee.kill('SIGKILL');
    }
  });
});
