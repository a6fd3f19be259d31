import type { Surface } from '@agent-tools/core';
import { serveRegistry } from '@agent-tools/mcp';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { loadPlugins } from '../plugins/catalog.js';
import { flushed } from '../stdout.js';
import type { McpArgs } from './args.js';
import { SERVER_INFO } from './server-info.js';
import { sessionRegistry } from './session-registry.js';

/**
 * Serves one run over standard input and output until the client ends it: end of input, a closed pipe (EPIPE on
 * stdout), SIGTERM, SIGINT or SIGHUP. Ending disposes the run (every process it started goes with it) and waits
 * for the last answers to leave stdout before the process exits. A client killed with SIGKILL closes the pipes
 * too; the keeper of core's process tracking covers the case where this process itself is killed.
 */
export async function serveStdio(args: McpArgs, cwd: string, surface: Surface): Promise<number> {
  // Every package is loaded before the first message is read, as a session lists them all anyway: a client that
  // writes its requests and ends its input at once must still get every answer, and the end of input closes the
  // session as soon as it is seen.
  await loadPlugins();
  const transport = new StdioServerTransport();
  const session = await serveRegistry(transport, (ctx) => sessionRegistry({ surface, fileTools: args.fileTools }, cwd, ctx), {
    surface,
    approval: args.approve,
    serverInfo: SERVER_INFO,
    onError: (error) => {
      if (process.env['AGENT_TOOLS_DEBUG']) console.error('[agent-tools mcp]', error);
    },
  });
  let ending: Promise<void> | undefined;
  const end = (): Promise<void> => {
    ending ??= session.close();
    return ending;
  };
  const signals = ['SIGTERM', 'SIGINT', 'SIGHUP'] as const;
  for (const signal of signals) process.once(signal, () => void end());
  process.stdin.once('end', () => void end());
  process.stdin.once('close', () => void end());
  process.stdout.on('error', () => void end());
  await session.closed;
  // The last answers may still sit in stdout's buffer behind a slow reader; the exit must not cut them short.
  await flushed(process.stdout);
  return 0;
}
