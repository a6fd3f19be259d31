import { createRegistry, defineTool, resultText, textResult } from '@agent-tools/core';
import { waitUntil } from '@agent-tools/test-utils';
import { afterAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { processRunner, vibeTools, WorkerList } from '../src/index.js';
import { removeWhenIdle, scripts } from './helpers.js';

const dir = scripts();
afterAll(async () => {
  expect(await removeWhenIdle([dir])).toEqual([]);
});

/** Another tool of the run, standing in for whatever the model calls next (a read, a search). */
const look = defineTool({
  name: 'look',
  tier: 'read',
  description: 'Stands in for any other tool.',
  parallelSafe: true,
  parameters: z.object({}),
  execute: () => textResult('looked'),
});

function run() {
  const workerList = new WorkerList({ runner: processRunner({ command: ['sh', dir.script('{label}')], killGraceMs: 300 }) });
  const registry = createRegistry({ resources: { workerList }, factories: [vibeTools], tools: [look] });
  return { registry, workerList };
}

describe('a worker that ends is announced on the next tool result, once', () => {
  it('finished: the next result of any tool carries the notice, the one after does not', async () => {
    const { registry, workerList } = run();
    await using _ = registry;
    await registry.call('vibe_spawn', { brief: 'summarise', label: 'finish' });
    await waitUntil(() => workerList.get('w1').status !== 'running');
    const next = resultText(await registry.call('look', {}));
    expect(next).toMatch(
      /^looked\nBackground workers:\nWorker w1 "finish" finished in \d+ (ms|s): worker w1 \(finish\) tier=good run=1 model=none brief lines: 1 done: summarise — call vibe_wait with worker_id "w1" for its result in full\.$/,
    );
    expect(resultText(await registry.call('look', {}))).toBe('looked');
    // Pulling still works after the push.
    expect(resultText(await registry.call('vibe_wait', { worker_id: 'w1' }))).toContain('finished in');
  });

  it('failed and killed-by-the-harness workers are announced too, grouped under one heading', async () => {
    const { registry, workerList } = run();
    await using _ = registry;
    // Spawned outside a call, so no result of the registry comes between the two endings.
    workerList.spawn({ brief: 'b', label: 'fail' });
    workerList.spawn({ brief: 'b', label: 'hang' });
    await waitUntil(() => workerList.get('w1').status === 'failed' && workerList.get('w2').output.includes('working'));
    // The harness stops a worker itself (a button in its UI): the model has not heard of it.
    await workerList.kill('w2');
    const text = resultText(await registry.call('look', {}));
    const lines = text.split('\n');
    expect(lines.slice(0, 2)).toEqual(['looked', 'Background workers:']);
    expect(lines[2]).toMatch(
      /^Worker w1 "fail" failed after \d+ (ms|s) \(exit code 3\): partial work on fail stderr: boom: cannot parse src\/a\.ts — call vibe_wait with worker_id "w1" for its output in full\. Read it, then vibe_send a correction or do the task yourself\.$/,
    );
    expect(lines[3]).toMatch(/^Worker w2 "hang" was killed after \d+ (ms|s): b working — call vibe_wait with worker_id "w2" for its output in full\.$/);
    expect(lines).toHaveLength(4);
  });

  it('is not repeated after an answer that already said it: vibe_wait, vibe_kill, vibe_list', async () => {
    const { registry, workerList } = run();
    await using _ = registry;
    await registry.call('vibe_spawn', { brief: 'b', label: 'finish' });
    const waited = resultText(await registry.call('vibe_wait', { worker_id: 'w1' }));
    expect(waited).not.toContain('Background workers');
    expect(resultText(await registry.call('look', {}))).toBe('looked');

    await registry.call('vibe_spawn', { brief: 'b', label: 'hang' });
    await waitUntil(() => workerList.get('w2').pid !== undefined);
    const killed = resultText(await registry.call('vibe_kill', { worker_id: 'w2' }));
    expect(killed).toMatch(/^Killed worker w2 "hang"/);
    expect(killed).not.toContain('Background workers');
    expect(resultText(await registry.call('look', {}))).toBe('looked');

    await registry.call('vibe_spawn', { brief: 'b', label: 'finish' });
    await waitUntil(() => workerList.get('w3').status === 'finished');
    expect(resultText(await registry.call('vibe_list', {}))).not.toContain('Background workers');
    expect(resultText(await registry.call('look', {}))).toBe('looked');
  });

  it('announces each run of a resent worker, and nothing for the run a message replaced', async () => {
    const { registry, workerList } = run();
    await using _ = registry;
    await registry.call('vibe_spawn', { brief: 'b', label: 'slow' });
    await waitUntil(() => workerList.get('w1').pid !== undefined);
    const sent = resultText(await registry.call('vibe_send', { worker_id: 'w1', message: 'again' }));
    expect(sent).not.toContain('Background workers');
    await waitUntil(() => workerList.get('w1').status === 'finished', 10_000);
    const text = resultText(await registry.call('look', {}));
    expect(text.match(/Worker w1/g)).toHaveLength(1);
    expect(text).toContain('slow result');
  });

  it('stops posting once the run is disposed', async () => {
    const { registry, workerList } = run();
    await registry.call('vibe_spawn', { brief: 'b', label: 'hang' });
    await waitUntil(() => workerList.get('w1').pid !== undefined);
    await registry.dispose();
    expect(workerList.get('w1').status).toBe('killed');
    expect(registry.notices.pending()).toBe(0);
  });
});
