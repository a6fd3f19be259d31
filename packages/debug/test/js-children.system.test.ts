import { waitForNoProcesses } from '@agent-tools/test-utils';
import { describe, expect, it } from 'vitest';
import { debugRig } from './helpers.js';
import { FORK_REPORT_JS, FORKER_JS, WORKER_JS } from './js-programs.js';
import { lineOf } from './programs.js';

describe('js adapter: child sessions (startDebugging) for forks and worker threads (real js-debug)', () => {
  it('stops in a forked child, lists both processes as threads, and runs both to their end', { timeout: 90_000 }, async () => {
    await using rig = debugRig({ 'fork.js': FORKER_JS });
    await rig.call({ action: 'breakpoints', file: 'fork.js', lines: [lineOf(FORKER_JS, '@child'), lineOf(FORKER_JS, '@parent')] });
    const launched = await rig.call({ action: 'launch', program: 'fork.js' });
    expect(launched.isError, launched.text).toBe(false);
    expect(launched.text).toMatch(new RegExp(`Stopped at a breakpoint in <anonymous> at fork\\.js:${lineOf(FORKER_JS, '@child')}, thread (\\d+) "fork\\.js \\[\\d+\\]"\\.`));
    const childThread = launched.structured.snapshot.threadId as number;
    const threads = await rig.call({ action: 'threads' });
    const listed = threads.structured.threads as { id: number; name: string }[];
    expect(listed.length).toBe(2);
    expect(listed.every((t) => /^fork\.js \[\d+\]$/.test(t.name))).toBe(true);
    expect(threads.text).toContain(`thread ${childThread}: `);
    expect(threads.text).toContain('(stopped here)');
    const status = await rig.call({ action: 'status' });
    expect(status.text).toMatch(/Processes and workers being debugged \(one child session each\): fork\.js \[\d+\], fork\.js \[\d+\];/);
    const step = await rig.call({ action: 'step_over' });
    expect(step.text).toContain(`at fork.js:${lineOf(FORKER_JS, '@child') + 1}, thread ${childThread}`);
    const answer = await rig.call({ action: 'evaluate', expression: 'answer + 1' });
    expect(answer.text).toMatch(/answer \+ 1 \(number\) = 43$/);
    // The parent's breakpoint: a stop in the other session, which evaluate and stack then follow.
    const parent = await rig.call({ action: 'continue' });
    expect(parent.text).toContain(`Stopped at a breakpoint in <anonymous> at fork.js:${lineOf(FORKER_JS, '@parent')}`);
    expect(parent.structured.snapshot.threadId).not.toBe(childThread);
    expect(parent.text).toContain('child says 42');
    const code = await rig.call({ action: 'evaluate', expression: 'code' });
    expect(code.text).toMatch(/code \(number\) = 0$/);
    const done = await rig.call({ action: 'continue' });
    expect(done.text).toContain('child exited 0');
    expect(done.structured.state).toBe('ended');
    expect(await waitForNoProcesses(rig.dir.path, 5000)).toEqual([]);
  });

  it('continue from a stop in a child whose process then ends answers with the next stop, not an error', { timeout: 90_000 }, async () => {
    await using rig = debugRig({ 'report.js': FORK_REPORT_JS });
    await rig.call({ action: 'breakpoints', file: 'report.js', lines: [lineOf(FORK_REPORT_JS, '@send'), lineOf(FORK_REPORT_JS, '@got')] });
    // js-debug ends the child's session around its answer to that continue (before it, or with "Unable to resume"):
    // a race, so it is run three times.
    for (let run = 0; run < 3; run++) {
      const child = await rig.call({ action: 'launch', program: 'report.js' });
      expect(child.text).toContain(`Stopped at a breakpoint in <anonymous> at report.js:${lineOf(FORK_REPORT_JS, '@send')}`);
      const parent = await rig.call({ action: 'continue' });
      expect(parent.isError, parent.text).toBe(false);
      expect(parent.text).toContain(`Stopped at a breakpoint in <anonymous> at report.js:${lineOf(FORK_REPORT_JS, '@got')}`);
      expect((await rig.call({ action: 'evaluate', expression: 'm.total' })).text).toMatch(/m\.total \(number\) = 15$/);
      const done = await rig.call({ action: 'continue' });
      expect(done.text).toContain('child sent 15');
      expect(done.text).toContain('The program exited with code 0.');
    }
    expect(await waitForNoProcesses(rig.dir.path, 5000)).toEqual([]);
  });

  it('stops in a worker thread, names it, and evaluates there', { timeout: 90_000 }, async () => {
    await using rig = debugRig({ 'worker.js': WORKER_JS });
    await rig.call({ action: 'breakpoints', file: 'worker.js', lines: [lineOf(WORKER_JS, '@worker')] });
    const launched = await rig.call({ action: 'launch', program: 'worker.js' });
    expect(launched.isError, launched.text).toBe(false);
    expect(launched.text).toMatch(new RegExp(`Stopped at a breakpoint in <anonymous> at worker\\.js:${lineOf(WORKER_JS, '@worker')}, thread \\d+ "\\[worker 1\\]"\\.`));
    const threads = await rig.call({ action: 'threads' });
    const names = (threads.structured.threads as { name: string }[]).map((t) => t.name);
    expect(names).toHaveLength(2);
    expect(names).toContain('[worker 1]');
    expect(names.some((name) => /^worker\.js \[\d+\]$/.test(name))).toBe(true);
    const n = await rig.call({ action: 'evaluate', expression: 'workerData.n * 3' });
    expect(n.text).toMatch(/workerData\.n \* 3 \(number\) = 15$/);
    const done = await rig.call({ action: 'continue' });
    expect(done.text).toContain('worker said 25');
    expect(done.text).toContain('worker done');
    expect(done.structured.state).toBe('ended');
    expect(await waitForNoProcesses(rig.dir.path, 5000)).toEqual([]);
  });
});
