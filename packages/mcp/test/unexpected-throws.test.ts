import { createRegistry, defineTool } from '@agent-tools/core';
import { tempDir } from '@agent-tools/test-utils';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { connect, newTrace, sessionRegistry } from './fixture.js';

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

describe('a failure of the elicitation port while a permission form is asked under `elicit`', () => {
  it("(injected: the client's elicitation handler throws) refuses the call and reaches the session's onError once", async () => {
    using dir = tempDir({});
    const trace = newTrace();
    const seen: unknown[] = [];
    await using link = await connect(sessionRegistry(dir.path, trace), { approval: 'elicit', onError: (error) => void seen.push(error) }, { elicitation: {} });
    link.client.setRequestHandler(ElicitRequestSchema, () => {
      throw bug;
    });
    const result = await link.client.callTool({ name: 'touch', arguments: { file: 'approved.txt' } });
    expect(result.isError).toBe(true);
    expect(JSON.stringify(result.content)).toContain('the permission card could not be shown');
    expect(trace.touched).toEqual([]);
    expect(seen).toHaveLength(1);
    expect(String(seen[0])).toContain("Cannot read properties of undefined (reading 'length')");
  });
});

describe('a bug while a request is answered outside the registry (injected: the harness’s listTools throws)', () => {
  it("the client gets an error response, and the session's onError hears of it once", async () => {
    const seen: unknown[] = [];
    const registry = createRegistry({ onError: (error) => void seen.push(error) });
    await using link = await connect(registry, {
      listTools: () => {
        throw bug;
      },
      onError: (error) => void seen.push(error),
    });
    await expect(link.client.listTools()).rejects.toThrow("Cannot read properties of undefined (reading 'length')");
    expect(seen).toEqual([bug]);
    await registry.dispose();
  });
});
