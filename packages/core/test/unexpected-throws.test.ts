import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { CoreError } from '../src/errors.js';
import { createRegistry, defineTool, resultText, type ToolContext } from '../src/index.js';

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
