import { createRegistry, type ProgressEvent, resultText } from '@agent-tools/core';
import { describe, expect, it } from 'vitest';
import { vibeTools, WorkerList } from '../src/index.js';

describe('vibe_wait reports the worker while it waits', () => {
  it("says every second how long the worker has run, with its latest output; nothing after the answer", async () => {
    const workerList = new WorkerList({
      runner: async function* (task) {
        for (let i = 1; i <= 5; i++) {
          yield `step ${i} of ${task.label}\n`;
          await new Promise((r) => setTimeout(r, 400));
        }
      },
    });
    await using registry = createRegistry({ resources: { workerList }, factories: [vibeTools] });
    const spawned = await registry.call('vibe_spawn', { brief: 'count', label: 'counter', tier: 'fast' });
    const id = (spawned.structured as { worker: { id: string } }).worker.id;
    const events: ProgressEvent[] = [];
    let answered = false;
    let late = 0;
    const waited = await registry.call('vibe_wait', { worker_id: id }, {
      onProgress: (event) => {
        if (answered) late++;
        events.push(event);
      },
    });
    answered = true;
    expect(resultText(waited)).toContain('step 5 of counter');
    expect(events.length).toBeGreaterThanOrEqual(1);
    expect(events[0]).toMatchObject({ tool: 'vibe_wait', message: expect.stringMatching(new RegExp(`^worker ${id} "counter" running for `)) });
    const outputs = events.map((e) => e.output ?? '');
    expect(outputs[0]).toMatch(/^step 1 of counter/);
    expect(outputs.at(-1)).toMatch(/step [2-5] of counter$/);
    await new Promise((r) => setTimeout(r, 1200));
    expect(late).toBe(0);
  });
});
