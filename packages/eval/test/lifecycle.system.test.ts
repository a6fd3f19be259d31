import { existsSync } from 'node:fs';
import { processesMatching, tempDir, waitForNoProcesses } from '@agent-tools/test-utils';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type EvalRun, evalRun } from './helpers.js';

// Kernel lifecycles on a real local Jupyter server: reset, death, interrupts, cancellation, dispose.
const dir = tempDir({}, 'agent-tools-eval-life-');
let run: EvalRun;
const js = { language: 'javascript' };

beforeAll(() => {
  run = evalRun(dir.path, { factory: { interruptGraceMs: 2000 } });
});
afterAll(async () => {
  await run.registry.dispose();
  dir.remove();
});

describe('kernels', () => {
  it('keeps one kernel per conversation and language', async () => {
    await run.cell('shared = "python, conversation 1"');
    await run.cell('const shared = "javascript, conversation 1"', js);
    await run.registry.call('eval', { code: 'shared = "python, conversation 2"', description: 'set a value in the other conversation' }, { conversationId: 'conversation-2' });
    expect((await run.cell('shared')).text).toMatch(/Out\[\d+\]: 'python, conversation 1'$/);
    expect((await run.cell('shared', js)).text).toMatch(/Out\[\d+\]: 'javascript, conversation 1'$/);
    const kernels = run.factory.kernels();
    expect(kernels.map((k) => `${k.conversationId}/${k.language}/${k.where}`).sort()).toEqual([
      'conversation-1/javascript/local',
      'conversation-1/python/local',
      'conversation-2/python/local',
    ]);
    expect(new Set(kernels.map((k) => k.id)).size).toBe(3);
  });

  it('reset throws the kernel away and starts clean', async () => {
    await run.cell('kept = 1');
    const reset = await run.cell('"kept" in globals()', { reset: true });
    expect(reset.text).toMatch(/^The python kernel was reset: this cell runs in a clean one\.\nOut\[1\]: False$/);
    const only = await run.cell('', { language: 'javascript', reset: true });
    expect(only.result.isError).toBe(false);
    expect(only.text).toBe('The javascript kernel was reset: the next cell runs in a clean one.');
    expect((await run.cell('typeof shared', js)).text).toMatch(/Out\[1\]: 'undefined'$/);
  });

  it('ends a kernel once however many ask: a second shutdown is the first one, a close after them is no death', async () => {
    const { session } = await run.factory.acquire('conversation-ended', 'python');
    const first = session.shutdown();
    const second = session.shutdown();
    session.close();
    expect(second).toBe(first);
    await second;
    // Closing the connection reports it lost; after an end that must not read as the kernel dying.
    expect(session.deathReason).toBeUndefined();
    // The connection file of an ipykernel is named after the kernel's id.
    expect(await waitForNoProcesses(session.id, 10_000)).toEqual([]);
  });

  it('reports a Python kernel that dies, and starts a fresh one next time saying the state was lost', async () => {
    await run.cell('before_death = 1');
    const death = await run.cell('import os\nprint("bye", flush=True)\nos._exit(3)');
    expect(death.result.isError).toBe(true);
    expect(death.structured.status).toBe('died');
    expect(death.text).toContain('The cell did not finish: the python kernel died (its process exited)');
    expect(death.text).toContain('the next eval call starts a fresh python kernel');
    const next = await run.cell('"before_death" in globals()');
    expect(next.result.isError).toBe(false);
    expect(next.text).toMatch(/^A fresh python kernel was started because the python kernel died \(its process exited\): variables, imports and data from earlier cells are gone/);
    expect(next.text).toMatch(/Out\[1\]: False$/);
    expect((await run.cell('1 + 1')).text).not.toContain('fresh');
  });

  it('reports a JavaScript kernel that dies the same way', async () => {
    const death = await run.cell('process.exit(2)', js);
    expect(death.structured.status).toBe('died');
    const next = await run.cell('typeof shared', js);
    expect(next.text).toContain('A fresh javascript kernel was started');
  });

  it('interrupts a quiet cell at its idle budget and keeps the state', async () => {
    const answer = await run.cell('state = "kept"\nimport time\ntime.sleep(30)', { timeout_seconds: 1 });
    expect(answer.structured.status).toBe('timeout');
    expect(answer.text).toContain('KeyboardInterrupt');
    expect(answer.text).toContain('The cell was interrupted after 1 s without output or a tool call. The kernel and its variables are kept');
    expect((await run.cell('state')).text).toMatch(/Out\[\d+\]: 'kept'$/);
  });

  it('lets a cell that keeps printing run past its idle budget', async () => {
    const answer = await run.cell('import time\nfor i in range(5):\n    print("tick", i, flush=True)\n    time.sleep(0.4)\n"finished"', { timeout_seconds: 1 });
    expect(answer.structured.status).toBe('ok');
    expect(answer.text).toMatch(/tick 4\nOut\[\d+\]: 'finished'$/);
  });

  it('gives up a kernel that ignores the interrupt and replaces it', async () => {
    const answer = await run.cell('import signal, time\nsignal.signal(signal.SIGINT, signal.SIG_IGN)\ntime.sleep(60)', { timeout_seconds: 1 });
    expect(answer.structured.status).toBe('stuck');
    expect(answer.text).toContain('the python kernel did not stop when interrupted, so it was shut down');
    const next = await run.cell('1')
    expect(next.text).toContain('A fresh python kernel was started');
  });

  it('interrupts the cell when the call is cancelled, keeping the state', async () => {
    await run.cell('progress = 0');
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 1500);
    const code = 'import time\nfor progress in range(1, 100):\n    print("step", progress, flush=True)\n    time.sleep(0.1)';
    const cancelled = await run.cell(code, {}, { signal: controller.signal });
    expect(cancelled.result.isError).toBe(true);
    expect(cancelled.structured.status).toBe('cancelled');
    // What the cell printed until the cancel, where it stopped, and that the state is kept.
    expect(cancelled.text).toMatch(/^step 1\nstep 2\n(step \d+\n)+/);
    expect(cancelled.text).toContain('KeyboardInterrupt');
    expect(cancelled.text).toMatch(
      /The call was cancelled, so the cell was interrupted \(above: what it printed until then\)\. The python kernel kept its state: variables, imports and data, including what this cell set before it stopped, are still there\.$/,
    );
    const after = await run.cell('0 < progress < 99');
    expect(after.text).toMatch(/Out\[\d+\]: True$/);
  });

  it('notices the local server dying and starts a new one, saying the state was lost', async () => {
    await run.cell('on_old_server = True');
    const server = processesMatching(run.factory.stateDir).find((p) => p.command.includes('ServerApp.ip'));
    expect(server).toBeDefined();
    process.kill(server?.pid as number, 'SIGKILL');
    await waitForNoProcesses(`${run.factory.stateDir}/runtime`, 10_000);
    const next = await run.cell('"on_old_server" in globals()');
    expect(next.text).toContain('A fresh python kernel was started because the local Jupyter server exited');
    expect(next.text).toMatch(/Out\[1\]: False$/);
  });
});

describe('dispose', () => {
  it('stops every kernel and the local server, leaving no process and no state directory', async () => {
    using local = tempDir({}, 'agent-tools-eval-dispose-');
    const own = evalRun(local.path);
    await own.cell('1');
    await own.cell('1', js);
    const marker = own.factory.stateDir;
    expect(processesMatching(marker).length).toBeGreaterThanOrEqual(3);
    await own.registry.dispose();
    expect(await waitForNoProcesses(marker, 10_000)).toEqual([]);
    expect(existsSync(marker)).toBe(false);
    const after = await own.cell('1');
    expect(after.text).toContain('This run has ended');
  });
});
