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

// Issue 26, item 6: the runner's `canResume` hook is asked when a send starts a worker's next run. Its throw left the
// worker "running" with nothing running (until killed); now the worker ends failed with the bug as its reason, and
// the bug reaches onError once through the send.
describe('a bug in the harness’s runner canResume hook (injected: it throws a TypeError)', () => {
  function setup(run: () => Promise<string>) {
    const bug = new TypeError("Cannot read properties of undefined (reading 'resume')");
    const workerList = new WorkerList({
      runner: {
        run,
        canResume: () => {
          throw bug;
        },
      },
    });
    const seen: { error: unknown; context: unknown }[] = [];
    const registry = createRegistry({
      resources: { workerList },
      factories: [vibeTools],
      onError: (error, context) => void seen.push({ error, context }),
    });
    return { bug, workerList, registry, seen };
  }

  it('sent to a finished worker: the send fails, the worker ends failed with the bug as its reason, onError hears it once', async () => {
    const s = setup(async () => 'first answer');
    await using _list = s.workerList;
    await using _registry = s.registry;
    await s.registry.call('vibe_spawn', { brief: 'summarise the README', label: 'readme' });
    expect(resultText(await s.registry.call('vibe_wait', { worker_id: 'w1' }))).toContain('first answer');
    const sent = await s.registry.call('vibe_send', { worker_id: 'w1', message: 'and the changelog' });
    expect(sent.isError).toBe(true);
    expect(resultText(sent)).toMatch(/^vibe_send failed: Cannot read properties of undefined \(reading 'resume'\)\n/);
    // The notice of the worker's end comes with it.
    expect(resultText(sent)).toContain('Worker w1 "readme" failed after');
    const worker = s.workerList.get('w1');
    expect(worker.status).toBe('failed');
    expect(worker.result?.detail).toBe("its runner could not say whether it can continue the session: Cannot read properties of undefined (reading 'resume')");
    expect(resultText(await s.registry.call('vibe_wait', { worker_id: 'w1' }))).toContain('failed');
    expect(s.seen).toEqual([{ error: s.bug, context: { phase: 'call', tool: 'vibe_send' } }]);
  });

  it('sent to a running worker (the restart path): the same, once', async () => {
    const s = setup(
      () =>
        new Promise<string>((resolve) => {
          setTimeout(() => resolve('stopped'), 50);
        }),
    );
    await using _list = s.workerList;
    await using _registry = s.registry;
    // A run that ends 50 ms after it starts: the send's restart waits for it, then asks canResume.
    await s.registry.call('vibe_spawn', { brief: 'summarise the README', label: 'readme' });
    expect(s.workerList.get('w1').status).toBe('running');
    const sent = await s.registry.call('vibe_send', { worker_id: 'w1', message: 'and the changelog' });
    expect(resultText(sent)).toMatch(/^vibe_send failed: Cannot read properties of undefined \(reading 'resume'\)\n/);
    expect(s.workerList.get('w1').status).toBe('failed');
    expect(s.seen).toEqual([{ error: s.bug, context: { phase: 'call', tool: 'vibe_send' } }]);
  });
});
