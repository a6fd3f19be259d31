import { waitUntil } from '@agent-tools/test-utils';
import { describe, expect, it } from 'vitest';
import { VibeError, WorkerList, type WorkerRunner, type WorkerTask } from '../src/index.js';
import { sleep } from './helpers.js';

/** A runner whose runs the test ends by hand; each run records its task. */
function manualRunner() {
  const runs: { task: WorkerTask; finish: (output: string) => void; fail: (message: string) => void }[] = [];
  const runner: WorkerRunner = (task) =>
    new Promise((resolve, reject) => {
      runs.push({ task, finish: (output) => resolve({ ok: true, output }), fail: (message) => reject(new Error(message)) });
      task.signal.addEventListener('abort', () => resolve({ ok: false, output: 'stopped', detail: 'stopped' }), { once: true });
    });
  return { runner, runs };
}

describe('WorkerList', () => {
  it('hands the runner the brief, tier, label, run and working directory, and keeps a string as the result', async () => {
    const seen: WorkerTask[] = [];
    await using list = new WorkerList({
      runner: async (task) => {
        seen.push(task);
        return `did: ${task.brief}`;
      },
      cwd: '/tmp',
    });
    const spawned = list.spawn({ brief: 'rename foo', label: 'renamer', tier: 'fast' });
    expect(spawned).toMatchObject({ id: 'w1', label: 'renamer', tier: 'fast', status: 'running', run: 1 });
    const { worker, ended } = await list.wait('w1', 5000);
    expect(ended).toBe(true);
    expect(worker).toMatchObject({ status: 'finished', result: { ok: true, output: 'did: rename foo' } });
    expect(seen[0]).toMatchObject({ workerId: 'w1', label: 'renamer', tier: 'fast', run: 1, cwd: '/tmp', brief: 'rename foo' });
  });

  it('takes a wait or a stop timeout of Infinity as no limit, not as 1 ms', async () => {
    let release!: () => void;
    await using list = new WorkerList({
      runner: (task) =>
        new Promise((resolve) => {
          release = () => resolve({ ok: true, output: 'done' });
          // A runner that takes a moment to stop, which a stop timeout of Infinity must wait for.
          task.signal.addEventListener('abort', () => setTimeout(() => resolve({ ok: false, output: 'wound down', detail: 'stopped' }), 50), { once: true });
        }),
      stopTimeoutMs: Number.POSITIVE_INFINITY,
    });
    list.spawn({ brief: 'b', label: 'one' });
    const waiting = list.wait('w1', Number.POSITIVE_INFINITY);
    await sleep(30);
    release();
    // setTimeout fires an Infinity delay after 1 ms: the wait said "still running" at once.
    expect(await waiting).toMatchObject({ ended: true, worker: { status: 'finished' } });
    list.spawn({ brief: 'b', label: 'two' });
    const { worker } = await list.kill('w2');
    expect(worker).toMatchObject({ status: 'killed', result: { output: 'wound down', detail: 'stopped' } });
  });

  it('defaults to the good tier', async () => {
    await using list = new WorkerList({ runner: async () => 'ok' });
    expect(list.spawn({ brief: 'b', label: 'l' }).tier).toBe('good');
  });

  it('shows a streaming runner\'s output while it runs, and the whole of it as the result', async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    await using list = new WorkerList({
      runner: async function* () {
        yield 'step 1\n';
        await gate;
        yield 'step 2\n';
      },
    });
    list.spawn({ brief: 'b', label: 'streamer' });
    await waitUntil(() => list.get('w1').output === 'step 1\n');
    expect(list.get('w1').status).toBe('running');
    release();
    const { worker } = await list.wait('w1', 5000);
    expect(worker.result).toEqual({ ok: true, output: 'step 1\nstep 2\n' });
  });

  it('marks a throwing runner failed, with the error as the detail', async () => {
    await using list = new WorkerList({
      runner: async () => {
        throw new Error('model quota exceeded');
      },
    });
    list.spawn({ brief: 'b', label: 'l' });
    const { worker } = await list.wait('w1', 5000);
    expect(worker).toMatchObject({ status: 'failed', result: { ok: false, detail: 'model quota exceeded' } });
  });

  it('restarts a running worker on send, with the message appended to the brief', async () => {
    const { runner, runs } = manualRunner();
    await using list = new WorkerList({ runner });
    list.spawn({ brief: 'write the parser', label: 'parser' });
    await waitUntil(() => runs.length === 1);
    const sent = await list.send('w1', 'also handle comments');
    expect(runs[0]?.task.signal.aborted).toBe(true);
    expect(sent).toMatchObject({ status: 'running', run: 2, messages: 1 });
    expect(runs[1]?.task.run).toBe(2);
    expect(runs[1]?.task.brief).toBe(
      'write the parser\n\n--- Message 1 from the lead ---\n(You were restarted to take it into account; files may already hold changes from your earlier run.)\nalso handle comments',
    );
    runs[1]?.finish('parsed');
    expect((await list.wait('w1', 5000)).worker).toMatchObject({ status: 'finished', run: 2, result: { output: 'parsed' } });
  });

  it('never drops a message: sends during a pending restart join it', async () => {
    const runs: WorkerTask[] = [];
    // A runner that takes a while to stop, so the second send arrives while the first restart waits.
    const runner: WorkerRunner = (task) =>
      new Promise((resolve) => {
        runs.push(task);
        task.signal.addEventListener('abort', () => setTimeout(() => resolve({ ok: false, output: '' }), 100), { once: true });
      });
    await using list = new WorkerList({ runner });
    list.spawn({ brief: 'task', label: 'l' });
    await waitUntil(() => runs.length === 1);
    const [a, b] = await Promise.all([list.send('w1', 'first'), list.send('w1', 'second')]);
    expect(a.run).toBe(2);
    expect(b.messages).toBe(2);
    expect(runs).toHaveLength(2);
    expect(runs[1]?.brief).toContain('first');
    expect(runs[1]?.brief).toContain('second');
  });

  it('restarts an ended worker on send', async () => {
    const briefs: string[] = [];
    await using list = new WorkerList({
      runner: async (task) => {
        briefs.push(task.brief);
        return `run ${task.run}`;
      },
    });
    list.spawn({ brief: 'task', label: 'l' });
    await list.wait('w1', 5000);
    await list.send('w1', 'now the tests');
    const { worker } = await list.wait('w1', 5000);
    expect(worker).toMatchObject({ status: 'finished', run: 2, result: { output: 'run 2' } });
    expect(briefs[1]).toContain('now the tests');
  });

  it('follows a restart while waiting, and returns the new run\'s result', async () => {
    const { runner, runs } = manualRunner();
    await using list = new WorkerList({ runner });
    list.spawn({ brief: 'task', label: 'l' });
    await waitUntil(() => runs.length === 1);
    const waiting = list.wait('w1', 5000);
    await list.send('w1', 'more');
    runs[1]?.finish('second run result');
    expect((await waiting).worker).toMatchObject({ status: 'finished', run: 2, result: { output: 'second run result' } });
  });

  it('says a wait timed out while the worker still runs', async () => {
    const { runner, runs } = manualRunner();
    await using list = new WorkerList({ runner });
    list.spawn({ brief: 'task', label: 'l' });
    const { worker, ended } = await list.wait('w1', 50);
    expect(ended).toBe(false);
    expect(worker.status).toBe('running');
    runs[0]?.finish('late');
    expect((await list.wait('w1', 5000)).ended).toBe(true);
  });

  it('refuses workers past the limit with a clear error, and accepts them once one ends', async () => {
    const { runner, runs } = manualRunner();
    await using list = new WorkerList({ runner, maxRunning: 2 });
    list.spawn({ brief: 'a', label: 'alpha' });
    list.spawn({ brief: 'b', label: 'beta' });
    let error: unknown;
    try {
      list.spawn({ brief: 'c', label: 'gamma' });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(VibeError);
    expect((error as VibeError).code).toBe('limit');
    expect((error as VibeError).message).toBe(
      '[agent-tools/vibe] Cannot start "gamma": 2 workers are already running, the limit of this run (w1 "alpha" (running), w2 "beta" (running)). Wait for one with vibe_wait or stop one with vibe_kill, then try again.',
    );
    runs[0]?.finish('done');
    await list.wait('w1', 5000);
    expect(list.spawn({ brief: 'c', label: 'gamma' }).id).toBe('w3');
  });

  it('refuses a send that would restart an ended worker past the limit, without appending the message', async () => {
    const { runner, runs } = manualRunner();
    await using list = new WorkerList({ runner, maxRunning: 1 });
    list.spawn({ brief: 'a', label: 'alpha' });
    runs[0]?.finish('done');
    await list.wait('w1', 5000);
    list.spawn({ brief: 'b', label: 'beta' });
    await expect(list.send('w1', 'again')).rejects.toThrow('so it was not delivered: 1 worker is already running');
    expect(list.get('w1').messages).toBe(0);
  });

  it('finds workers by id or unique label, and names the known ones otherwise', async () => {
    await using list = new WorkerList({ runner: manualRunner().runner });
    list.spawn({ brief: 'a', label: 'Parser' });
    list.spawn({ brief: 'b', label: 'tests' });
    list.spawn({ brief: 'c', label: 'tests' });
    expect(list.get('parser').id).toBe('w1');
    expect(() => list.get('w9')).toThrow('No worker "w9". Workers of this run: w1 "Parser" (running), w2 "tests" (running), w3 "tests" (running).');
    expect(() => list.get('tests')).toThrow('Several workers are labelled "tests"; use the id.');
  });

  it('kills a worker whose runner never confirms, after the stop timeout', async () => {
    await using list = new WorkerList({ runner: () => new Promise(() => {}), stopTimeoutMs: 100 });
    list.spawn({ brief: 'a', label: 'deaf' });
    const { worker, wasRunning } = await list.kill('w1');
    expect(wasRunning).toBe(true);
    expect(worker).toMatchObject({ status: 'killed', result: { detail: 'the runner did not confirm that it stopped' } });
    expect((await list.kill('w1')).wasRunning).toBe(false);
  });

  it('stops every worker on dispose and refuses new ones', async () => {
    const { runner, runs } = manualRunner();
    const list = new WorkerList({ runner });
    list.spawn({ brief: 'a', label: 'a' });
    list.spawn({ brief: 'b', label: 'b' });
    await list.dispose();
    expect(runs.every((r) => r.task.signal.aborted)).toBe(true);
    expect(list.list().map((w) => w.status)).toEqual(['killed', 'killed']);
    expect(() => list.spawn({ brief: 'c', label: 'c' })).toThrow('This run has ended');
  });

  it('keeps only the newest ended workers', async () => {
    await using list = new WorkerList({ runner: async () => 'ok', maxKept: 2 });
    for (const label of ['a', 'b', 'c', 'd']) {
      const { id } = list.spawn({ brief: label, label });
      await list.wait(id, 5000);
    }
    await sleep(0);
    expect(list.list().map((w) => w.label)).toEqual(['c', 'd']);
  });
});
