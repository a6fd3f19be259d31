import { createRegistry, defaultSurface, resultText } from '@agent-tools/core';
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
  it("reaches the registry's onError once as phase background, and the model learns the worker failed", async () => {
    const bug = new TypeError("Cannot read properties of undefined (reading 'model')");
    const fallback: unknown[] = [];
    await using workerList = new WorkerList({
      runner: () => {
        throw bug;
      },
      onError: (error) => void fallback.push(error),
    });
    const seen: { error: unknown; context: unknown }[] = [];
    await using registry = createRegistry({
      resources: { workerList },
      factories: [vibeTools],
      onError: (error, context) => void seen.push({ error, context }),
    });
    await registry.call('vibe_spawn', { brief: 'summarise the README', label: 'readme' });
    const waited = resultText(await registry.call('vibe_wait', { worker_id: 'w1' }));
    expect(waited).toContain('failed');
    expect(waited).toContain("Cannot read properties of undefined (reading 'model')");
    expect(seen).toEqual([{ error: bug, context: { phase: 'background', factory: '@agent-tools/vibe' } }]);
    // The list's own onError is for a list used without a run: not told a second time.
    expect(fallback).toEqual([]);
  });

  it("without a registry goes to the worker list's own onError once", async () => {
    const bug = new TypeError('injected');
    const seen: unknown[] = [];
    await using workerList = new WorkerList({
      runner: () => {
        throw bug;
      },
      onError: (error) => void seen.push(error),
    });
    workerList.spawn({ brief: 'b', label: 'l', surface: defaultSurface });
    await workerList.wait('w1', 5000);
    expect(seen).toEqual([bug]);
  });
});

describe('a bug in the harness’s own onEnd listener (injected: it throws when a worker ends)', () => {
  it("reaches the registry's onError once as phase background, and the worker's answer still comes", async () => {
    const bug = new RangeError('the status line is gone');
    await using workerList = new WorkerList({ runner: async () => 'the README says hello' });
    workerList.onEnd(() => {
      throw bug;
    });
    const seen: { error: unknown; context: unknown }[] = [];
    await using registry = createRegistry({
      resources: { workerList },
      factories: [vibeTools],
      onError: (error, context) => void seen.push({ error, context }),
    });
    await registry.call('vibe_spawn', { brief: 'summarise the README', label: 'readme' });
    const waited = resultText(await registry.call('vibe_wait', { worker_id: 'w1' }));
    expect(waited).toContain('the README says hello');
    expect(seen).toEqual([{ error: bug, context: { phase: 'background', factory: '@agent-tools/vibe' } }]);
  });
});
