import { createRegistry, resultText } from '@agent-tools/core';
import { describe, expect, it } from 'vitest';
import { processRunner, vibeTools, WorkerList } from '../src/index.js';

describe('a bug inside a vibe tool (injected: the worker list throws a TypeError; nothing starts)', () => {
  it('reaches the harness onError once, and the model gets "vibe_list failed: …"', async () => {
    await using workerList = new WorkerList({ runner: processRunner({ command: ['true'] }) });
    const bug = new TypeError("Cannot read properties of undefined (reading 'status')");
    workerList.list = () => {
      throw bug;
    };
    const seen: unknown[] = [];
    await using registry = createRegistry({ resources: { workerList }, factories: [vibeTools], onError: (error) => void seen.push(error) });
    const result = await registry.call('vibe_list', {});
    expect(result.isError).toBe(true);
    expect(resultText(result)).toBe("vibe_list failed: Cannot read properties of undefined (reading 'status')");
    expect(seen).toEqual([bug]);
  });
});

describe('a bug in the harness’s worker runner (injected: it throws a TypeError)', () => {
  it("reaches the worker list's onError once, and the model learns the worker failed", async () => {
    const bug = new TypeError("Cannot read properties of undefined (reading 'model')");
    const seen: unknown[] = [];
    await using workerList = new WorkerList({
      runner: () => {
        throw bug;
      },
      onError: (error) => void seen.push(error),
    });
    await using registry = createRegistry({ resources: { workerList }, factories: [vibeTools] });
    await registry.call('vibe_spawn', { brief: 'summarise the README', label: 'readme' });
    const waited = resultText(await registry.call('vibe_wait', { worker_id: 'w1' }));
    expect(waited).toContain('failed');
    expect(waited).toContain("Cannot read properties of undefined (reading 'model')");
    expect(seen).toEqual([bug]);
  });
});
