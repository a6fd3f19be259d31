import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createAskTools } from '@agent-tools/ask';
import { createRegistry, defineTool, imagePart, type Registry, textResult } from '@agent-tools/core';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { ClientCapabilities } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { type McpSession, type McpSessionContext, type ServeOptions, serveRegistry } from '../src/index.js';

/** A 1x1 PNG. */
export const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';

/** What the fixture's tools saw, for assertions. */
export interface Trace {
  cancelled: number;
  disposed: number;
  touched: string[];
}

/** Tools of every tier, written here because they are the registry's contract, not a package's behaviour. */
export function fixtureTools(cwd: string, trace: Trace) {
  return [
    defineTool({
      name: 'echo',
      tier: 'read',
      description: 'Echoes its text.',
      parameters: z.object({ text: z.string().describe('what to echo') }),
      parallelSafe: true,
      execute: ({ text }) => textResult(`echo: ${text}`, { echo: text }),
    }),
    defineTool({
      name: 'picture',
      tier: 'read',
      description: 'Returns a picture.',
      parameters: z.object({}),
      parallelSafe: true,
      execute: () => ({ content: [{ type: 'text', text: 'a dot' }, imagePart('image/png', PNG)], isError: false }),
    }),
    defineTool({
      name: 'touch',
      tier: 'write',
      description: 'Writes a file.',
      parameters: z.object({ file: z.string() }),
      parallelSafe: true,
      execute: ({ file }) => {
        writeFileSync(join(cwd, file), 'x');
        trace.touched.push(file);
        return textResult(`wrote ${file}`);
      },
    }),
    defineTool({
      name: 'slow',
      tier: 'exec',
      description: 'Counts up to steps, one step every 30 ms, reporting progress.',
      parameters: z.object({ steps: z.number().int().min(1) }),
      parallelSafe: false,
      timeoutMs: 60_000,
      execute: async ({ steps }, ctx) => {
        for (let i = 1; i <= steps; i++) {
          if (ctx.signal.aborted) {
            trace.cancelled++;
            return textResult('stopped');
          }
          ctx.reportProgress({ message: `step ${i}`, progress: i, total: steps });
          await new Promise((resolve) => setTimeout(resolve, 30));
        }
        return textResult(`counted to ${steps}`);
      },
    }),
  ];
}

/** A fresh trace. */
export function newTrace(): Trace {
  return { cancelled: 0, disposed: 0, touched: [] };
}

/** A registry for one session, built from its context the way a harness would. */
export function sessionRegistry(cwd: string, trace: Trace, questionTimeoutMs = 5000) {
  return (session: McpSessionContext): Registry =>
    createRegistry({
      resources: {
        cwd,
        questionPort: session.questionPort,
        targetSpace: session.targetSpace,
        probe: { [Symbol.asyncDispose]: async () => void trace.disposed++ } as never,
      },
      factories: [createAskTools({ timeoutMs: questionTimeoutMs })],
      tools: fixtureTools(cwd, trace),
      approve: session.approve,
      progressIntervalMs: 10,
    });
}

/** A client and a server joined in memory. */
export async function connect(
  source: Parameters<typeof serveRegistry>[1],
  options: ServeOptions = {},
  capabilities: ClientCapabilities = {},
): Promise<{ client: Client; session: McpSession } & AsyncDisposable> {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const session = await serveRegistry(serverSide, source, options);
  const client = new Client({ name: 'test', version: '1.0.0' }, { capabilities });
  await client.connect(clientSide);
  return { client, session, [Symbol.asyncDispose]: () => client.close() };
}
