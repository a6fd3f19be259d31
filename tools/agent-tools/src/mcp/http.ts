import { statSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Surface } from '@agent-tools/core';
import { serveHttp, sessionDirectory } from '@agent-tools/mcp';
import { UsageError } from '../args.js';
import { logBug } from '../bug-log.js';
import { loadPlugins } from '../plugins/catalog.js';
import type { McpArgs } from './args.js';
import { manifestListing } from './manifest-listing.js';
import { SERVER_INFO } from './server-info.js';
import { sessionRegistry } from './session-registry.js';
import { staticToolList } from './tool-manifest.js';

/**
 * Serves Streamable HTTP until SIGTERM, SIGINT or SIGHUP: each MCP session is a run of its own in the server's
 * directory, or in its client's first root when `--roots-under` allows it. Stopping ends every session first.
 */
export async function serveHttpCommand(args: McpArgs, cwd: string, surface: Surface): Promise<number> {
  const rootsBase = args.rootsBase === undefined ? undefined : resolve(args.rootsBase);
  if (rootsBase !== undefined && !statSync(rootsBase, { throwIfNoEntry: false })?.isDirectory()) {
    throw new UsageError(`--roots-under ${args.rootsBase}: no such directory.`);
  }
  const token = process.env['AGENT_TOOLS_MCP_TOKEN']?.trim() || undefined;
  // As over stdio: tools/list from the build's manifest; the packages load once it has been answered, or at a call.
  const listed = staticToolList(surface, args.fileTools);
  const server = await serveHttp(
    async (session) => {
      const dir = await sessionDirectory(session, { cwd, ...(rootsBase === undefined ? {} : { rootsBase }) });
      return sessionRegistry({ surface, fileTools: args.fileTools }, dir, session);
    },
    {
      port: args.port,
      host: args.host,
      idleTimeoutMs: args.idleTimeoutSeconds * 1000,
      allowedHosts: args.allowedHosts,
      allowedOrigins: args.allowedOrigins,
      ...(token ? { token } : {}),
      surface,
      approval: args.approve,
      serverInfo: SERVER_INFO,
      listTools: manifestListing(listed, loadPlugins),
      onError: (error) => logBug(error, 'mcp session'),
    },
  ).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'EADDRINUSE') throw new UsageError(`port ${args.port} on ${args.host} is in use; pick another with --port (0: any free port).`);
    throw error;
  });
  process.stderr.write(`agent-tools mcp: serving ${server.url.href}${token ? ' (bearer token required)' : ''}\n`);
  await new Promise<void>((done) => {
    for (const signal of ['SIGTERM', 'SIGINT', 'SIGHUP'] as const) process.once(signal, () => done());
  });
  await server.close();
  return 0;
}
