import type { Surface } from '@agent-tools/core';
import { serveRegistry } from '@agent-tools/mcp';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { logBug } from '../bug-log.js';
import { consoleToStderr } from '../console-to-stderr.js';
import { loadPlugins } from '../plugins/catalog.js';
import { flushed } from '../stdout.js';
import type { McpArgs } from './args.js';
import { manifestListing } from './manifest-listing.js';
import { SERVER_INFO } from './server-info.js';
import { sessionRegistry } from './session-registry.js';
import { staticToolList } from './tool-manifest.js';

/** How long the answers to requests read before the end of input may take before the session ends anyway. */
const ANSWER_GRACE_MS = 10_000;

/**
 * Serves one run over standard input and output until the client ends it: end of input, a closed pipe (EPIPE on
 * stdout), SIGTERM, SIGINT or SIGHUP. Ending disposes the run (every process it started goes with it) and waits
 * for the last answers to leave stdout before the process exits. A client killed with SIGKILL closes the pipes
 * too; the keeper of core's process tracking covers the case where this process itself is killed.
 */
export async function serveStdio(args: McpArgs, cwd: string, surface: Surface): Promise<number> {
  consoleToStderr();
  // tools/list is answered from the build's manifest, without loading any package; the packages load once it has
  // been answered (the model's turn comes next), or at the first call, whichever is first. Without a manifest
  // every package loads before the first message is read.
  const listed = staticToolList(surface, args.fileTools);
  let loading: Promise<unknown> | undefined;
  const load = (): Promise<unknown> => {
    loading ??= loadPlugins();
    return loading;
  };
  if (!listed) await load();
  const transport = new StdioServerTransport();
  const session = await serveRegistry(
    transport,
    (ctx) => {
      // Preloading only: the session's registry awaits the same load and answers its failure.
      void load().catch(() => undefined);
      return sessionRegistry({ surface, fileTools: args.fileTools }, cwd, ctx);
    },
    {
      surface,
      approval: args.approve,
      serverInfo: SERVER_INFO,
      listTools: manifestListing(listed, load),
      onError: (error) => logBug(error, 'mcp session'),
    },
  );
  let ending: Promise<void> | undefined;
  const end = (): Promise<void> => {
    ending ??= session.close();
    return ending;
  };
  const signals = ['SIGTERM', 'SIGINT', 'SIGHUP'] as const;
  for (const signal of signals) process.once(signal, () => void end());
  // A client that writes its requests and ends its input at once must still get every answer (the first call loads
  // the packages): the end waits for the answers to what was read, for ANSWER_GRACE_MS at most, then cancels the rest.
  const endOfInput = (): void => {
    let timer: NodeJS.Timeout | undefined;
    const grace = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, ANSWER_GRACE_MS);
    });
    void Promise.race([session.answered(), grace]).then(() => {
      clearTimeout(timer);
      // The last answer is written by the SDK after its handler returned: one turn of the event loop later.
      setImmediate(() => void end());
    });
  };
  process.stdin.once('end', endOfInput);
  process.stdin.once('close', endOfInput);
  process.stdout.on('error', () => void end());
  await session.closed;
  // The last answers may still sit in stdout's buffer behind a slow reader; the exit must not cut them short.
  await flushed(process.stdout);
  return 0;
}
