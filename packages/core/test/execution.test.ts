import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { waitUntil as until } from '../../../tools/test-utils/src/wait-until.js';
import {
  type ApprovalRequest,
  approveAll,
  createRegistry,
  defineTool,
  resultText,
  type ToolContext,
  type ToolResult,
  textResult,
} from '../src/index.js';
import { deferred, echoTool } from './helpers.js';

/** A tool that records how many of its calls overlap, and waits for a gate to finish. */
function gatedTool(name: string, parallelSafe: boolean) {
  const state = { running: 0, maxRunning: 0, started: 0, gates: [] as ReturnType<typeof deferred<void>>[] };
  const tool = defineTool({
    name,
    tier: 'read',
    description: 'Gated.',
    parallelSafe,
    parameters: z.object({}),
    async execute() {
      state.running++;
      state.started++;
      state.maxRunning = Math.max(state.maxRunning, state.running);
      const gate = deferred<void>();
      state.gates.push(gate);
      await gate.promise;
      state.running--;
      return textResult('done');
    },
  });
  return { tool, state };
}

describe('approval', () => {
  const write = echoTool('change', 'write');
  const exec = echoTool('run', 'exec');
  const read = echoTool('look', 'read');

  it('refuses write and exec calls when no approver is attached (fail-closed), and never asks for read', async () => {
    await using registry = createRegistry({ tools: [write, exec, read] });
    const refused = await registry.call('change', {});
    expect(refused.isError).toBe(true);
    expect(resultText(refused)).toMatch(/write-tier tool and this run has no approver attached, so it was refused/);
    expect((await registry.call('run', {})).isError).toBe(true);
    expect((await registry.call('look', {})).isError).toBe(false);
  });

  it('asks the harness callback with the validated arguments and honours a denial with its reason', async () => {
    const asked: ApprovalRequest[] = [];
    await using registry = createRegistry({
      tools: [write, read],
      resources: { conversationId: 'conv-1' },
      approve: (request) => {
        asked.push(request);
        return { approved: false, reason: 'not on Fridays' };
      },
    });
    const result = await registry.call('change', { text: 'x' });
    expect(resultText(result)).toBe(
      'The user did not allow this change call. Reason given: not on Fridays. Do not repeat the same call; change the approach or ask the user.',
    );
    await registry.call('look', {});
    expect(asked).toHaveLength(1);
    expect(asked[0]).toMatchObject({ tool: 'change', tier: 'write', args: { text: 'x' }, conversationId: 'conv-1', bridged: false });
  });

  it('runs the tool when approved, and treats a throwing approver as a refusal', async () => {
    await using ok = createRegistry({ tools: [write], approve: async () => true });
    expect(resultText(await ok.call('change', { text: 'y' }))).toBe('change: y');
    await using broken = createRegistry({
      tools: [write],
      approve: () => {
        throw new Error('prompt crashed');
      },
    });
    const result = await broken.call('change', {});
    expect(result.isError).toBe(true);
    expect(resultText(result)).toContain('approval step failed: prompt crashed.');
  });

  it('gates bridged calls exactly like model calls and keeps them on the caller surface', async () => {
    const asked: ApprovalRequest[] = [];
    const bridge = defineTool({
      name: 'cell',
      tier: 'read',
      description: 'Calls other tools.',
      parallelSafe: true,
      parameters: z.object({ tool: z.string() }),
      async execute({ tool }, ctx) {
        const inner = await ctx.registry.call(tool, { text: 'from cell' }, { surface: 'default' });
        return textResult(`${inner.isError ? 'error' : 'ok'}: ${resultText(inner)}`);
      },
    });
    await using registry = createRegistry({
      tools: [bridge, write, read],
      approve: (request) => {
        asked.push(request);
        return false;
      },
    });
    expect(resultText(await registry.call('cell', { tool: 'change' }))).toMatch(/^error: The user did not allow this change call/);
    expect(asked[0]?.bridged).toBe(true);
    // On the plan surface the bridged call cannot reach a write tool, even though it asked for the default surface.
    expect(resultText(await registry.call('cell', { tool: 'change' }, { surface: 'plan' }))).toBe(
      'error: Unknown tool "change": it is not available on the "plan" surface, which admits read-tier tools only (change is write-tier). Do not retry it here. The tools available here are: cell, look.',
    );
    expect(asked).toHaveLength(1);
  });
});

describe('serialization', () => {
  it('runs a tool that is not parallel-safe one call at a time, in order', async () => {
    const { tool, state } = gatedTool('session', false);
    await using registry = createRegistry({ tools: [tool] });
    const calls = [registry.call('session', {}), registry.call('session', {}), registry.call('session', {})];
    await until(() => state.started === 1);
    await new Promise((r) => setTimeout(r, 30));
    expect(state.started).toBe(1);
    state.gates[0]?.resolve();
    await until(() => state.started === 2);
    state.gates[1]?.resolve();
    await until(() => state.started === 3);
    state.gates[2]?.resolve();
    await Promise.all(calls);
    expect(state.maxRunning).toBe(1);
  });

  it('lets parallel-safe calls overlap', async () => {
    const { tool, state } = gatedTool('query', true);
    await using registry = createRegistry({ tools: [tool] });
    const calls = [registry.call('query', {}), registry.call('query', {})];
    await until(() => state.started === 2);
    for (const gate of state.gates) gate.resolve();
    await Promise.all(calls);
    expect(state.maxRunning).toBe(2);
  });

  it('serializes per conversation, so two conversations do not wait for each other', async () => {
    const { tool, state } = gatedTool('session', false);
    await using registry = createRegistry({ tools: [tool] });
    const a = registry.call('session', {}, { conversationId: 'a' });
    const b = registry.call('session', {}, { conversationId: 'b' });
    await until(() => state.started === 2);
    for (const gate of state.gates) gate.resolve();
    await Promise.all([a, b]);
  });

  it('answers a re-entrant call instead of deadlocking', async () => {
    const selfCalling = defineTool({
      name: 'kernel',
      tier: 'read',
      description: 'Calls itself.',
      parallelSafe: false,
      parameters: z.object({}),
      async execute(_p, ctx) {
        return ctx.registry.call('kernel', {});
      },
    });
    await using registry = createRegistry({ tools: [selfCalling] });
    const result = await registry.call('kernel', {});
    expect(resultText(result)).toBe('kernel cannot be called from inside its own call: it runs one call at a time and would wait for itself.');
  });
});

describe('timeouts, cancellation and failures', () => {
  function hangingTool(timeoutMs?: number) {
    const seen: { signal?: AbortSignal } = {};
    const tool = defineTool({
      name: 'hang',
      tier: 'read',
      description: 'Never finishes on its own.',
      parallelSafe: false,
      ...(timeoutMs ? { timeoutMs } : {}),
      parameters: z.object({}),
      execute(_p, ctx: ToolContext) {
        seen.signal = ctx.signal;
        return new Promise<never>(() => {});
      },
    });
    return { tool, seen };
  }

  it('times a call out, aborts its signal, and says so', async () => {
    const { tool, seen } = hangingTool();
    await using registry = createRegistry({ tools: [tool], timeoutMs: 50 });
    const result = await registry.call('hang', {});
    expect(result.isError).toBe(true);
    expect(resultText(result)).toBe(
      'hang did not finish within 50 ms and was cancelled. Try a smaller request, or check the tool\'s status before retrying.',
    );
    expect(seen.signal?.aborted).toBe(true);
  });

  it('lets the tool and the call override the registry timeout', async () => {
    const { tool } = hangingTool(30);
    await using registry = createRegistry({ tools: [tool], timeoutMs: 60_000 });
    expect(resultText(await registry.call('hang', {}))).toMatch(/^hang did not finish within 30 ms/);
    expect(resultText(await registry.call('hang', {}, { timeoutMs: 40 }))).toMatch(/^hang did not finish within 40 ms/);
  });

  it('takes a timeout longer than a timer can wait (2^31 ms, about 24.8 days) as that long, not as 1 ms', async () => {
    const slow = defineTool({
      name: 'slow',
      tier: 'read',
      description: 'Answers after 50 ms.',
      parallelSafe: true,
      parameters: z.object({}),
      execute: () => new Promise<ToolResult>((resolve) => setTimeout(() => resolve(textResult('done')), 50)),
    });
    await using registry = createRegistry({ tools: [slow], timeoutMs: 30 * 24 * 3600_000 });
    // setTimeout takes such a delay as 1 ms: "slow did not finish within 2592000 s and was cancelled".
    expect(resultText(await registry.call('slow', {}))).toBe('done');
  });

  it('answers at once when the caller aborts, and the tool sees the abort', async () => {
    const { tool, seen } = hangingTool();
    await using registry = createRegistry({ tools: [tool] });
    const controller = new AbortController();
    const pending = registry.call('hang', {}, { signal: controller.signal });
    await until(() => seen.signal !== undefined);
    controller.abort();
    expect(resultText(await pending)).toBe('hang was cancelled before it finished.');
    expect(seen.signal?.aborted).toBe(true);
  });

  it('waits up to a tool\'s cancelGraceMs for its own answer to a cancel, and answers for it when none comes', async () => {
    const winding = defineTool({
      name: 'winding',
      tier: 'read',
      description: 'Says what it did before the cancel.',
      parallelSafe: true,
      cancelGraceMs: 5000,
      parameters: z.object({ answer: z.boolean() }),
      execute: ({ answer }, ctx) =>
        new Promise<ToolResult>((resolve) => {
          ctx.signal.addEventListener('abort', () => {
            if (answer) setTimeout(() => resolve({ isError: true, content: [{ type: 'text', text: 'stopped after 3 of 10 steps' }] }), 20);
          });
        }),
    });
    const silent = defineTool({ ...winding, name: 'silent', cancelGraceMs: 30 });
    await using registry = createRegistry({ tools: [winding, silent] });
    const controller = new AbortController();
    const pending = registry.call('winding', { answer: true }, { signal: controller.signal });
    setTimeout(() => controller.abort(), 10);
    expect(resultText(await pending)).toBe('stopped after 3 of 10 steps');
    const other = new AbortController();
    const unanswered = registry.call('silent', { answer: false }, { signal: other.signal });
    setTimeout(() => other.abort(), 10);
    expect(resultText(await unanswered)).toBe('silent was cancelled before it finished.');
    expect(() => defineTool({ ...winding, cancelGraceMs: -1 })).toThrow(/cancelGraceMs must be/);
  });

  it('turns a throw into an error result and reports it to the harness', async () => {
    const errors: unknown[] = [];
    const thrower = defineTool({
      name: 'boom',
      tier: 'read',
      description: 'Throws.',
      parallelSafe: true,
      parameters: z.object({}),
      execute: () => {
        throw new TypeError('cannot read properties of undefined');
      },
    });
    await using registry = createRegistry({ tools: [thrower], onError: (e) => errors.push(e) });
    const result = await registry.call('boom', {});
    expect(result).toEqual({ isError: true, content: [{ type: 'text', text: 'boom failed: cannot read properties of undefined' }] });
    expect(errors).toHaveLength(1);
  });

  it('turns a malformed result into an error result', async () => {
    const sloppy = defineTool({
      name: 'sloppy',
      tier: 'read',
      description: 'Returns junk.',
      parallelSafe: true,
      parameters: z.object({}),
      execute: () => ({ text: 'oops' }) as never,
    });
    const seen: { error: unknown; context: unknown }[] = [];
    await using registry = createRegistry({ tools: [sloppy], onError: (error, context) => void seen.push({ error, context }) });
    expect(resultText(await registry.call('sloppy', {}))).toBe('sloppy returned a malformed result; this is a bug in the tool. Try another approach.');
    // A bug in the tool, so the harness hears of it too, once, with what the tool returned.
    expect(seen).toHaveLength(1);
    expect(String(seen[0]?.error)).toBe('Error: sloppy returned a malformed result: {"text":"oops"}');
    expect(seen[0]?.context).toEqual({ tool: 'sloppy', phase: 'call' });
  });

  it('keeps structured data and images of a result', async () => {
    const rich = defineTool({
      name: 'rich',
      tier: 'read',
      description: 'Returns parts.',
      parallelSafe: true,
      parameters: z.object({}),
      execute: () => ({
        isError: false,
        content: [
          { type: 'text', text: 'a plot' },
          { type: 'image', mimeType: 'image/png', data: 'iVBORw0KGgo=' },
        ],
        structured: { points: 3 },
      }),
    });
    await using registry = createRegistry({ tools: [rich], approve: approveAll });
    const result = await registry.call('rich', {});
    expect(result.content[1]).toEqual({ type: 'image', mimeType: 'image/png', data: 'iVBORw0KGgo=' });
    expect(result.structured).toEqual({ points: 3 });
  });
});

describe('dispose', () => {
  it('disposes every resource by whichever method it has, aborts calls in flight, and refuses later calls', async () => {
    const log: string[] = [];
    const { tool, seen } = (() => {
      const s: { signal?: AbortSignal } = {};
      return {
        seen: s,
        tool: defineTool({
          name: 'wait',
          tier: 'read',
          description: 'Waits.',
          parallelSafe: true,
          parameters: z.object({}),
          execute: (_p, ctx) => {
            s.signal = ctx.signal;
            return new Promise<never>(() => {});
          },
        }),
      };
    })();
    const registry = createRegistry({
      tools: [tool],
      resources: {
        cwd: '/tmp',
        server: { dispose: async () => void log.push('dispose()') },
        kernel: { [Symbol.asyncDispose]: async () => void log.push('asyncDispose') },
        port: { [Symbol.dispose]: () => void log.push('dispose symbol') },
        broken: {
          dispose: () => {
            throw new Error('already gone');
          },
        },
      },
    });
    const inFlight = registry.call('wait', {});
    await until(() => seen.signal !== undefined);
    await registry.dispose();
    expect(log.sort()).toEqual(['asyncDispose', 'dispose symbol', 'dispose()']);
    expect(seen.signal?.aborted).toBe(true);
    expect(resultText(await inFlight)).toBe('wait was cancelled because the run ended.');
    expect(resultText(await registry.call('wait', {}))).toMatch(/This run has ended/);
  });

  it('does not wait forever for a resource that hangs while disposing', async () => {
    const errors: string[] = [];
    const registry = createRegistry({
      resources: { stuck: { dispose: () => new Promise(() => {}) } },
      disposeTimeoutMs: 30,
      onError: (e) => errors.push(String(e)),
    });
    await registry.dispose();
    expect(errors).toEqual(['Error: did not finish disposing within 30 ms']);
  });

  it('tells onError the very error a resource threw while disposing (its stack), once, as phase dispose', async () => {
    const bug = new TypeError("Cannot read properties of undefined (reading 'kill')");
    const seen: { error: unknown; context: unknown }[] = [];
    const registry = createRegistry({
      resources: {
        broken: {
          dispose: async () => {
            throw bug;
          },
        },
      },
      onError: (error, context) => void seen.push({ error, context }),
    });
    await registry.dispose();
    expect(seen).toEqual([{ error: bug, context: { phase: 'dispose' } }]);
    expect(seen[0]?.error).toBe(bug);
  });
});
