import { UsageError } from '../args.js';
import { surfaceNamed, workingDirectory } from '../run-options.js';
import { MCP_USAGE, type McpArgs, parseMcpArgs } from './args.js';

/** `agent-tools mcp`: parses its options and serves until the client (stdio) or a signal (HTTP) ends it. */
export async function runMcp(argv: readonly string[]): Promise<number> {
  let args: McpArgs;
  let cwd: string;
  try {
    args = parseMcpArgs(argv);
    if (args.help) {
      process.stdout.write(`${MCP_USAGE}\n`);
      return 0;
    }
    cwd = workingDirectory(args.cwd);
    const surface = surfaceNamed(args.surface);
    // Each transport's modules load only when it serves (the HTTP stack is not needed over stdio).
    return args.http
      ? await (await import('./http.js')).serveHttpCommand(args, cwd, surface)
      : await (await import('./stdio.js')).serveStdio(args, cwd, surface);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    process.stderr.write(`agent-tools mcp: ${error.message}\n\n${MCP_USAGE}\n`);
    return 2;
  }
}
