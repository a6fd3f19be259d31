import { createRegistry, resultText, toolSchema } from '@agent-tools/core';
import { factoryContract, waitForNoProcesses, waitUntil } from '@agent-tools/test-utils';
import { afterAll, describe, expect, it } from 'vitest';
import { processRunner, vibeTools, WorkerList, type WorkerRunner } from '../src/index.js';
import { groupMembers, scripts } from './helpers.js';

const dir = scripts();
afterAll(() => dir.remove());

factoryContract({
  factory: vibeTools,
  resources: () => ({ workerList: new WorkerList({ runner: processRunner({ command: ['sh', dir.script('hang')] }) }) }),
  tools: { vibe_spawn: 'read', vibe_send: 'read', vibe_wait: 'read', vibe_kill: 'read', vibe_list: 'read' },
  warmUp: { tool: 'vibe_spawn', args: { brief: 'hang around', label: 'warm-up' }, marker: dir.path },
  harness: new URL('./harness/contract.mjs', import.meta.url),
});

function run(runner: WorkerRunner = processRunner({ command: ['sh', dir.script('{label}')], killGraceMs: 300 }), maxRunning = 4) {
  const workerList = new WorkerList({ runner, maxRunning });
  const registry = createRegistry({ resources: { workerList }, factories: [vibeTools] });
  return { registry, workerList };
}

describe('vibe tool schemas', () => {
  it('are the JSON Schemas the model sees', async () => {
    await using registry = run().registry;
    const schemas = Object.fromEntries(registry.tools().map((tool) => [tool.name, toolSchema(tool).inputSchema]));
    expect(schemas).toMatchSnapshot();
    for (const tool of registry.tools()) expect(tool.tier).toBe('read');
  });

  it('carry the usage guidance in their descriptions', async () => {
    await using registry = run().registry;
    const spawn = registry.tools().find((t) => t.name === 'vibe_spawn');
    expect(spawn?.description).toContain('"fast" for mechanical work with a clear spec');
    expect(spawn?.description).toContain('"good" for design, judgement, or reviewing a fast worker\'s output');
    expect(spawn?.description).toContain('return at once');
  });

  it('are registered only in vibe mode, that is with a worker list', async () => {
    await using registry = createRegistry({ factories: [vibeTools] });
    expect(registry.tools()).toEqual([]);
    expect(registry.factories[0]).toMatchObject({ registered: false, missing: ['workerList'] });
  });
});

describe('vibe tools end to end with real scripts', () => {
  it('show a worker\'s output as its terminal would: no colour codes, a progress bar at its last state, no NUL', async () => {
    const { registry } = run();
    await using _ = registry;
    await registry.call('vibe_spawn', { brief: 'b', label: 'colours' });
    const waited = resultText(await registry.call('vibe_wait', { worker_id: 'w1' }));
    expect(waited).toMatch(/^Worker w1 "colours" finished in \d+ (ms|s)\. Result:\nplan ready\ntests 100%\nok$/);
    const listed = resultText(await registry.call('vibe_list', {}));
    expect(listed).toContain('result: plan ready\n    tests 100%\n    ok');
  });

  it('spawn returns at once; list, wait and kill say what happened', async () => {
    const { registry, workerList } = run();
    await using _ = registry;
    const spawned = await registry.call('vibe_spawn', { brief: 'never ends', label: 'hang', tier: 'fast' });
    expect(resultText(spawned)).toBe(
      'Started worker w1 "hang" (tier fast). It runs in the background; carry on with other work: you will be told on a later tool result when it ends. Call vibe_wait with worker_id "w1" to block for its result, vibe_send to add instructions, vibe_kill to stop it. Running now: 1 of 4.',
    );
    await registry.call('vibe_spawn', { brief: 'b', label: 'finish' });
    await registry.call('vibe_wait', { worker_id: 'w2' });
    await waitUntil(() => workerList.get('w1').output.includes('working'));

    const listed = resultText(await registry.call('vibe_list', {}));
    expect(listed).toMatch(
      /^2 workers, 1 running \(at most 4 at once\):\n- w1 "hang" · fast · running for \d+ (ms|s)\n {2}output so far: never ends\n {4}working\n- w2 "finish" · good · finished in \d+ (ms|s)\n {2}result: worker w2 \(finish\) tier=good run=1 model=none\n {4}brief lines: 1\n {4}done: b$/,
    );

    const waited = await registry.call('vibe_wait', { worker_id: 'w1', timeout_seconds: 0.2 });
    expect(waited.isError).toBe(false);
    expect(resultText(waited)).toMatch(
      /^Worker w1 "hang" is still running: the wait timed out after 200 ms \(this run has taken \d+ (ms|s) so far\)\. It keeps working in the background; call vibe_wait again to wait longer, vibe_send to steer it, or vibe_kill to stop it\.\nOutput so far:\nnever ends\nworking$/,
    );

    const pid = workerList.get('w1').pid as number;
    const killed = await registry.call('vibe_kill', { worker_id: 'hang' });
    expect(resultText(killed)).toMatch(/^Killed worker w1 "hang" after \d+ (ms|s)\. Its output before it was killed:\nnever ends\nworking$/);
    expect(groupMembers(pid)).toEqual([]);
    expect(resultText(await registry.call('vibe_list', {}))).toMatch(
      /- w1 "hang" · fast · killed after \d+ (ms|s)\n {2}output before it was killed: never ends\n {4}working\n/,
    );
    expect(resultText(await registry.call('vibe_wait', { worker_id: 'w1' }))).toMatch(
      /^Worker w1 "hang" was killed after \d+ (ms|s)\. Its output before it was killed:\nnever ends\nworking$/,
    );
    expect(resultText(await registry.call('vibe_kill', { worker_id: 'w1' }))).toMatch(
      /^Worker w1 "hang" had already ended \(killed after \d+ (ms|s)\); nothing to stop\.$/,
    );
  });

  it('wait returns a finished result, and a failure as an error with what to do', async () => {
    const { registry } = run();
    await using _ = registry;
    await registry.call('vibe_spawn', { brief: 'line one\nline two', label: 'finish' });
    const finished = await registry.call('vibe_wait', { worker_id: 'w1' });
    expect(finished.isError).toBe(false);
    expect(resultText(finished)).toMatch(
      /^Worker w1 "finish" finished in \d+ (ms|s)\. Result:\nworker w1 \(finish\) tier=good run=1 model=none\nbrief lines: 2\ndone: line two$/,
    );
    await registry.call('vibe_spawn', { brief: 'b', label: 'fail' });
    const failed = await registry.call('vibe_wait', { worker_id: 'fail' });
    expect(failed.isError).toBe(true);
    expect(resultText(failed)).toMatch(
      /^Worker w2 "fail" failed after \d+ (ms|s) \(exit code 3\)\. Its output:\npartial work on fail\nstderr:\nboom: cannot parse src\/a\.ts\nRead what went wrong, then vibe_send a correction or do the task yourself\.$/,
    );
  });

  it('send appends to the brief and restarts a worker whose runner cannot resume, and says so', async () => {
    const { registry, workerList } = run();
    await using _ = registry;
    await registry.call('vibe_spawn', { brief: 'first', label: 'hang' });
    await waitUntil(() => workerList.get('w1').output.includes('working'));
    const firstPid = workerList.get('w1').pid as number;
    const sent = await registry.call('vibe_send', { worker_id: 'w1', message: 'use tabs' });
    expect(resultText(sent)).toBe(
      'Sent to w1 "hang" (run 2, 1 message so far): it restarted from scratch with your message appended to its brief, because this worker runner cannot continue a session. It runs in the background; call vibe_wait with worker_id "w1" for its result.',
    );
    expect(groupMembers(firstPid)).toEqual([]);
    await waitUntil(() => workerList.get('w1').output.includes('working'));
    expect(workerList.get('w1').output).toContain('use tabs');
    expect(resultText(await registry.call('vibe_list', {}))).toMatch(/- w1 "hang" · good · running for \d+ (ms|s) · run 2 \(1 message, restarted\)/);
  });

  it('refuses a spawn past the limit, naming the running workers and what to do', async () => {
    const { registry } = run(undefined, 1);
    await using _ = registry;
    await registry.call('vibe_spawn', { brief: 'b', label: 'hang' });
    const refused = await registry.call('vibe_spawn', { brief: 'b', label: 'stubborn' });
    expect(refused.isError).toBe(true);
    expect(refused.structured).toEqual({ error: 'limit' });
    expect(resultText(refused)).toBe(
      'Cannot start "stubborn": 1 worker is already running, the limit of this run (w1 "hang" (running)). Wait for one with vibe_wait or stop one with vibe_kill, then try again.',
    );
  });

  it('reports a worker command that cannot start right from vibe_spawn', async () => {
    const { registry } = run(processRunner({ command: ['/nonexistent/agent'] }));
    await using _ = registry;
    const result = await registry.call('vibe_spawn', { brief: 'b', label: 'ghost' });
    expect(result.isError).toBe(true);
    expect(resultText(result)).toBe(
      "Worker w1 \"ghost\" could not start: could not start `/nonexistent/agent`: spawn /nonexistent/agent ENOENT. This is a problem with the harness's worker setup, not with your brief; do the task yourself or tell the user.",
    );
  });

  it('answers unknown workers and bad arguments with what to do', async () => {
    const { registry } = run();
    await using _ = registry;
    const unknown = await registry.call('vibe_wait', { worker_id: 'w7' });
    expect(resultText(unknown)).toBe('No worker "w7": no worker has been spawned in this run.');
    expect(unknown.structured).toEqual({ error: 'unknown_worker' });
    expect(resultText(await registry.call('vibe_list', {}))).toBe('No workers yet. Start one with vibe_spawn.');
    const bad = await registry.call('vibe_spawn', { brief: '  ', label: 'x', tier: 'best' });
    expect(resultText(bad)).toContain('`brief`: the brief is empty; describe the task the worker should do');
    expect(resultText(bad)).toContain('`tier` must be one of "fast", "good", got the string "best".');
    const tooLong = await registry.call('vibe_wait', { worker_id: 'w1', timeout_seconds: 5000 });
    expect(resultText(tooLong)).toContain('`timeout_seconds`');
  });

  it('kills every worker and its children when the run is disposed', async () => {
    const { registry, workerList } = run();
    await registry.call('vibe_spawn', { brief: 'b', label: 'hang' });
    await registry.call('vibe_spawn', { brief: 'b', label: 'stubborn' });
    await waitUntil(() => workerList.list().every((w) => w.output !== ''));
    const pids = workerList.list().map((w) => w.pid as number);
    await registry.dispose();
    for (const pid of pids) expect(groupMembers(pid)).toEqual([]);
    expect(await waitForNoProcesses(dir.path, 1000)).toEqual([]);
  });
});
