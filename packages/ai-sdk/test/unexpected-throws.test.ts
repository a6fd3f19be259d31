import { createRegistry, defineTool, type ToolResult } from '@agent-tools/core';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { toAiSdkTools } from '../src/index.js';
import { modelOutput } from '../src/model-output.js';

type Executable = { execute: (input: unknown, options: { toolCallId: string; messages: [] }) => AsyncIterable<unknown> | Promise<unknown> };

describe('a bug inside a tool called through the AI SDK (injected: execute throws a TypeError)', () => {
  it("reaches the registry's onError once, and the model gets an error output", async () => {
    const bug = new TypeError("Cannot read properties of undefined (reading 'length')");
    const seen: unknown[] = [];
    await using registry = createRegistry({
      tools: [
        defineTool({
          name: 'probe',
          tier: 'read',
          description: 'test',
          parameters: z.object({}),
          parallelSafe: true,
          execute: () => Promise.reject(bug),
        }),
      ],
      onError: (error) => void seen.push(error),
    });
    const run = (toAiSdkTools(registry)['probe'] as unknown as Executable).execute({}, { toolCallId: 'c1', messages: [] });
    const outputs: unknown[] = [];
    if (Symbol.asyncIterator in run) for await (const output of run) outputs.push(output);
    else outputs.push(await run);
    const result = outputs.at(-1) as ToolResult;
    expect(modelOutput(result, 'media')).toEqual({ type: 'error-text', value: "probe failed: Cannot read properties of undefined (reading 'length')" });
    expect(seen).toEqual([bug]);
  });
});
