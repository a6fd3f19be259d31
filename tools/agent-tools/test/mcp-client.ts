import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { ClientCapabilities } from '@modelcontextprotocol/sdk/types.js';
import { CLI } from './run-cli.js';

/** The SDK's own client, connected to the real CLI's `mcp` command over stdio. */
export async function stdioClient(
  args: readonly string[],
  options: { env?: NodeJS.ProcessEnv; capabilities?: ClientCapabilities } = {},
): Promise<{ client: Client; transport: StdioClientTransport } & AsyncDisposable> {
  const env = Object.fromEntries(Object.entries({ ...process.env, AGENT_TOOLS_DEBUG: '', ...options.env }).filter(([, v]) => v !== undefined)) as Record<string, string>;
  const transport = new StdioClientTransport({ command: process.execPath, args: [CLI, 'mcp', ...args], env, stderr: 'pipe' });
  const client = new Client({ name: 'agent-tools-test', version: '1.0.0' }, { capabilities: options.capabilities ?? {} });
  await client.connect(transport);
  return { client, transport, [Symbol.asyncDispose]: () => client.close() };
}

/** The text parts of a tools/call result. */
export function textOf(result: object): string {
  return (((result as { content?: unknown }).content ?? []) as { type: string; text?: string }[])
    .filter((part) => part.type === 'text')
    .map((part) => part.text)
    .join('\n');
}
