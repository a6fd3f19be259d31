import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { BackgroundErrors } from '../src/background-errors.js';
import { CoreError } from '../src/errors.js';
import { approveAll, createRegistry, type DiagnosticsSource, defineFactory, defineTool, resultText, type ToolContext } from '../src/index.js';
import { scratch, writeTool } from './helpers.js';

/** A tool whose execute is the given function: where a test injects a bug. */
function tool(execute: (ctx: ToolContext) => unknown) {
  return defineTool({
    name: 'probe',
    tier: 'read',
    description: 'test',
    parameters: z.object({}),
    parallelSafe: true,
    execute: async (_params, ctx) => execute(ctx) as never,
  });
}

function recorder() {
  const seen: { error: unknown; context: unknown }[] = [];
  return { seen, onError: (error: unknown, context: unknown) => void seen.push({ error, context }) };
}

describe('an unexpected throw', () => {
  it('reaches onError once, and the model gets "<tool> failed: …"', async () => {
    const bug = new TypeError("Cannot read properties of undefined (reading 'uri')");
    const { seen, onError } = recorder();
    await using registry = createRegistry({ tools: [tool(() => Promise.reject(bug))], onError });
    const result = await registry.call('probe', {});
    expect(result.isError).toBe(true);
    expect(resultText(result)).toBe("probe failed: Cannot read properties of undefined (reading 'uri')");
    expect(seen).toEqual([{ error: bug, context: { tool: 'probe', phase: 'call' } }]);
  });

  it('reported by the tool through ctx.reportError and thrown again is reported once', async () => {
    const bug = new RangeError('injected');
    const { seen, onError } = recorder();
    await using registry = createRegistry({
      tools: [
        tool((ctx) => {
          ctx.reportError(bug);
          ctx.reportError(bug);
          throw bug;
        }),
      ],
      onError,
    });
    expect(resultText(await registry.call('probe', {}))).toBe('probe failed: injected');
    expect(seen.map((s) => s.error)).toEqual([bug]);
  });

  it('caught and answered by the tool reaches onError through ctx.reportError, the answer is the tool\'s', async () => {
    const bug = new TypeError('injected');
    const { seen, onError } = recorder();
    await using registry = createRegistry({
      tools: [
        tool((ctx) => {
          ctx.reportError(bug);
          return { content: [{ type: 'text', text: 'Nothing was run; the state is kept.' }], isError: true };
        }),
      ],
      onError,
    });
    expect(resultText(await registry.call('probe', {}))).toBe('Nothing was run; the state is kept.');
    expect(seen).toEqual([{ error: bug, context: { tool: 'probe', phase: 'call' } }]);
  });

  it('is not an AgentToolsError: those are answers, never reported, thrown or passed to ctx.reportError', async () => {
    const { seen, onError } = recorder();
    const answer = new CoreError('invalid_path', 'Pass a path inside the working directory.');
    await using registry = createRegistry({
      tools: [
        tool((ctx) => {
          ctx.reportError(answer);
          throw answer;
        }),
      ],
      onError,
    });
    expect(resultText(await registry.call('probe', {}))).toBe('Pass a path inside the working directory.');
    expect(seen).toEqual([]);
  });

  it('still gets its answer when the harness\'s onError itself throws', async () => {
    await using registry = createRegistry({
      tools: [tool(() => Promise.reject(new Error('injected')))],
      onError: () => {
        throw new Error('the logger is down');
      },
    });
    expect(resultText(await registry.call('probe', {}))).toBe('probe failed: injected');
  });
});

/** A tool that waits for its signal, then throws what `onAbort` makes of the abort's reason. */
function waitsThenThrows(onAbort: (reason: unknown) => unknown, timeoutMs?: number) {
  return defineTool({
    name: 'probe',
    tier: 'read',
    description: 'test',
    parameters: z.object({}),
    parallelSafe: true,
    ...(timeoutMs ? { timeoutMs } : {}),
    // A moment of grace, so the registry is still listening when the tool throws on its way out.
    cancelGraceMs: 1000,
    execute: (_params, ctx) =>
      new Promise<never>((_, reject) => {
        if (ctx.signal.aborted) reject(onAbort(ctx.signal.reason));
        ctx.signal.addEventListener('abort', () => reject(onAbort(ctx.signal.reason)), { once: true });
      }),
  });
}

describe('a call that was cancelled or timed out', () => {
  it('still reports a bug it throws on the way out, once, and is answered as cancelled', async () => {
    const bug = new TypeError("Cannot read properties of undefined (reading 'pid')");
    const { seen, onError } = recorder();
    await using registry = createRegistry({ tools: [waitsThenThrows(() => bug)], onError });
    const controller = new AbortController();
    const call = registry.call('probe', {}, { signal: controller.signal });
    controller.abort(new Error('the user pressed stop'));
    expect(resultText(await call)).toBe('probe was cancelled before it finished.');
    expect(seen).toEqual([{ error: bug, context: { tool: 'probe', phase: 'call' } }]);
  });

  it('reports a bug thrown after its timeout, and is answered as timed out', async () => {
    const bug = new RangeError('injected after the timeout');
    const { seen, onError } = recorder();
    await using registry = createRegistry({ tools: [waitsThenThrows(() => bug, 50)], onError });
    expect(resultText(await registry.call('probe', {}))).toMatch(/^probe did not finish within 50 ms and was cancelled\./);
    expect(seen).toEqual([{ error: bug, context: { tool: 'probe', phase: 'call' } }]);
  });

  it('reports nothing when what it throws is the abort itself: the reason, an AbortError, an AgentToolsError, or caused by one', async () => {
    const throws: ReadonlyArray<(reason: unknown) => unknown> = [
      (reason) => reason,
      () => new DOMException('This operation was aborted', 'AbortError'),
      () => new CoreError('disposed', 'The request was cancelled.'),
      (reason) => new Error('the request was dropped', { cause: reason }),
    ];
    for (const make of throws) {
      const { seen, onError } = recorder();
      await using registry = createRegistry({ tools: [waitsThenThrows(make)], onError });
      const controller = new AbortController();
      const call = registry.call('probe', {}, { signal: controller.signal });
      controller.abort(new Error('the user pressed stop'));
      expect(resultText(await call)).toBe('probe was cancelled before it finished.');
      expect(seen).toEqual([]);
    }
    // Timed out, throwing what the timeout aborted with.
    const { seen, onError } = recorder();
    await using registry = createRegistry({ tools: [waitsThenThrows((reason) => reason, 50)], onError });
    expect(resultText(await registry.call('probe', {}))).toMatch(/did not finish within 50 ms/);
    expect(seen).toEqual([]);
  });
});

describe('a bug outside any call, told to run.reportError', () => {
  /** A factory whose resource works in the background and reports its bugs through the run, as the packages do. */
  function backgroundFactory(errors: BackgroundErrors) {
    return defineFactory({
      name: '@agent-tools/probe',
      needs: [],
      create: (_resources, run) => {
        const stop = run ? errors.subscribe(run.reportError) : () => undefined;
        return { tools: [tool(() => ({ content: [{ type: 'text', text: 'fine' }], isError: false }))], dispose: stop };
      },
    });
  }

  it('reaches onError once as phase background with the factory named, and calls answer as before', async () => {
    const errors = new BackgroundErrors();
    const { seen, onError } = recorder();
    await using registry = createRegistry({ factories: [backgroundFactory(errors)], onError });
    const bug = new TypeError("Cannot read properties of undefined (reading 'uri')");
    // An event handler that throws, and a background promise that rejects with the same bug.
    errors.guard(() => {
      throw bug;
    })();
    errors.watch(Promise.reject(bug));
    await new Promise((resolve) => setImmediate(resolve));
    expect(seen).toEqual([{ error: bug, context: { phase: 'background', factory: '@agent-tools/probe' } }]);
    expect(resultText(await registry.call('probe', {}))).toBe('fine');
  });

  it('is told once when a handler throws the same bug on every message (a new error object each time)', async () => {
    const errors = new BackgroundErrors();
    const seen: unknown[] = [];
    errors.subscribe((error) => void seen.push(error));
    const handler = errors.guard((message: { uri?: string } | undefined) => (message as { uri: string }).uri.length);
    for (let i = 0; i < 3; i++) handler(undefined);
    expect(seen).toHaveLength(1);
    expect(seen[0]).toBeInstanceOf(TypeError);
    // Another bug is told, once too.
    const other = errors.guard(() => JSON.parse('{'));
    for (let i = 0; i < 2; i++) other();
    expect(seen).toHaveLength(2);
    expect(seen[1]).toBeInstanceOf(SyntaxError);
  });

  it('goes to the fallback when no run listens, and to none once the run is disposed', async () => {
    const fallback: unknown[] = [];
    const errors = new BackgroundErrors((error) => void fallback.push(error));
    const { seen, onError } = recorder();
    const registry = createRegistry({ factories: [backgroundFactory(errors)], onError });
    await registry.dispose();
    const bug = new Error('after the run');
    errors.report(bug);
    expect(seen).toEqual([]);
    expect(fallback).toEqual([bug]);
  });

  it('met by a resource while the run disposes it still reaches onError (outputs, which unsubscribe, go after)', async () => {
    const errors = new BackgroundErrors();
    const bug = new RangeError('an exit handler failed at shutdown');
    // A resource whose end runs an exit handler that throws, as a language server's launch cleanup can.
    const resource = {
      async dispose() {
        await new Promise((resolve) => setImmediate(resolve));
        errors.guard(() => {
          throw bug;
        })();
      },
    };
    const { seen, onError } = recorder();
    const registry = createRegistry({ resources: { probe: resource }, factories: [backgroundFactory(errors)], onError });
    await registry.dispose();
    expect(seen).toEqual([{ error: bug, context: { phase: 'background', factory: '@agent-tools/probe' } }]);
  });

  it('without any listener becomes a process warning, not a crash', async () => {
    const warnings: Error[] = [];
    const listen = (warning: Error): void => void warnings.push(warning);
    process.on('warning', listen);
    try {
      const bug = new TypeError('nobody listens');
      new BackgroundErrors().guard(async () => {
        throw bug;
      })();
      await new Promise((resolve) => setTimeout(resolve, 20));
      expect(warnings).toEqual([bug]);
    } finally {
      process.off('warning', listen);
    }
  });
});

describe('a bug of the run’s diagnostics source while a write’s diagnostics are gathered', () => {
  it('reaches onError once as phase background; the write answers that its diagnostics are unavailable', async () => {
    using dir = scratch();
    const bug = new TypeError("Cannot read properties of undefined (reading 'diagnostics')");
    const source: DiagnosticsSource = {
      check: () => Promise.reject(bug),
    };
    const { seen, onError } = recorder();
    await using registry = createRegistry({
      resources: { cwd: dir.path, diagnostics: source },
      tools: [writeTool(dir.path)],
      approve: approveAll,
      onError,
    });
    const result = await registry.call('write', { path: 'a.ts', content: 'x' });
    expect(result.isError).toBe(false);
    expect(resultText(result)).toMatch(/^Wrote a\.ts\./);
    expect(resultText(result)).toContain("Cannot read properties of undefined (reading 'diagnostics')");
    expect(seen).toEqual([{ error: bug, context: { phase: 'background' } }]);
  });
});

describe('a late answer of the run’s diagnostics source that rejects (it promises never to)', () => {
  it('reaches onError once as phase background; the write answers that its diagnostics are pending', async () => {
    using dir = scratch();
    const bug = new TypeError("Cannot read properties of undefined (reading 'items')");
    const source: DiagnosticsSource = {
      check: async (files) => files.map((file) => ({ file, state: 'pending' as const, settled: Promise.reject(bug) })),
    };
    const { seen, onError } = recorder();
    await using registry = createRegistry({
      resources: { cwd: dir.path, diagnostics: source },
      tools: [writeTool(dir.path)],
      approve: approveAll,
      onError,
    });
    const result = await registry.call('write', { path: 'a.ts', content: 'x' });
    expect(result.isError).toBe(false);
    expect(resultText(result)).toMatch(/^Wrote a\.ts\./);
    await new Promise((resolve) => setImmediate(resolve));
    expect(seen).toEqual([{ error: bug, context: { phase: 'background' } }]);
  });
});
