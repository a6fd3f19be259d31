import { createRegistry, defineTool } from '@agent-tools/core';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { connect } from './fixture.js';

const bug = new TypeError("Cannot read properties of undefined (reading 'length')");

describe('a bug reached through an MCP session', () => {
  it("inside a tool (injected: execute throws a TypeError): the registry's onError once, the client an error result", async () => {
    const seen: unknown[] = [];
    const registry = createRegistry({
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
    await using link = await connect(registry);
    const result = await link.client.callTool({ name: 'probe', arguments: {} });
    expect(result.isError).toBe(true);
    expect(result.content).toEqual([{ type: 'text', text: "probe failed: Cannot read properties of undefined (reading 'length')" }]);
    expect(seen).toEqual([bug]);
    await registry.dispose();
  });

  it("in the harness's registry factory (injected: it throws): the session's onError once, however many requests fail on it", async () => {
    const seen: unknown[] = [];
    await using link = await connect(
      () => {
        throw bug;
      },
      { onError: (error) => void seen.push(error) },
    );
    await expect(link.client.listTools()).rejects.toThrow(/could not be set up/);
    await expect(link.client.callTool({ name: 'probe', arguments: {} })).rejects.toThrow(/could not be set up/);
    await link.session.close();
    expect(seen).toEqual([bug]);
  });
});
