import { APPROVAL_MODES, type ApprovalMode } from '@agent-tools/mcp';
import { UsageError } from '../args.js';

/** The parsed command line of `agent-tools mcp`. */
export interface McpArgs {
  readonly cwd?: string;
  readonly surface?: string;
  readonly approve: ApprovalMode;
  readonly fileTools: boolean;
  readonly http: boolean;
  readonly port: number;
  readonly host: string;
  /** Seconds a session may stay without a request before it is ended. */
  readonly idleTimeoutSeconds: number;
  /** Client roots inside this directory may become a session's working directory (HTTP only). */
  readonly rootsBase?: string;
  /** Origins allowed besides the server's own (browser clients). */
  readonly allowedOrigins: readonly string[];
  /** Host names allowed in the Host header besides loopback names. */
  readonly allowedHosts: readonly string[];
  readonly help: boolean;
}

export const MCP_USAGE = `Usage:
  agent-tools mcp [--cwd DIR] [--surface default|plan|subagent] [--approve client|elicit|yes] [--file-tools]
  agent-tools mcp --http [--port N] [--host 127.0.0.1] [--idle-timeout SECONDS] [--roots-under DIR]
                  [--allow-origin ORIGIN]... [--allow-host HOST]... (and the options above)

  An MCP server. Over stdio (the default) one process serves one run: the end of standard input, a closed pipe
  or SIGTERM ends it and every process it started. With --http each MCP session (Mcp-Session-Id) is a run of its
  own, ended by DELETE, by the client going away, or after --idle-timeout seconds without a request (default 1800).

  --cwd DIR           working directory of every run (default: the current directory)
  --surface NAME      default, plan or subagent: plan and subagent list only read-tier tools (default: default)
  --approve MODE      who approves write and exec calls: client (default: the MCP client asks its human before
                      calling), elicit (the server asks through elicitation; refused without it), yes (all)
  --file-tools        also serve read, write and edit, whose writes report new diagnostics
  --http              serve Streamable HTTP instead of stdio, on http://HOST:PORT/mcp
  --port N            default 8808; 0 picks a free port (the address is printed on stderr)
  --host HOST         default 127.0.0.1 (loopback); Host and Origin headers are checked against DNS rebinding
  --roots-under DIR   a session's working directory is its client's first root when that lies inside DIR;
                      a root outside DIR is refused (without this option client roots are ignored)
  --allow-origin O    also accept requests whose Origin is O (repeatable)
  --allow-host H      also accept Host header H (repeatable; needed when --host is not loopback)
  AGENT_TOOLS_MCP_TOKEN  when set, HTTP requests must carry "Authorization: Bearer <token>"`;

const VALUE = new Set(['--cwd', '--surface', '--approve', '--port', '--host', '--idle-timeout', '--roots-under', '--allow-origin', '--allow-host']);
const BOOLEAN = new Set(['--file-tools', '--http', '--help', '-h']);

/** Parses `mcp`'s options, throwing {@link UsageError} for anything it does not accept. */
export function parseMcpArgs(argv: readonly string[]): McpArgs {
  const values = new Map<string, string[]>();
  const flags = new Set<string>();
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string;
    const eq = arg.startsWith('--') ? arg.indexOf('=') : -1;
    const name = eq === -1 ? arg : arg.slice(0, eq);
    if (VALUE.has(name)) {
      const value = eq === -1 ? argv[++i] : arg.slice(eq + 1);
      if (value === undefined || value === '') throw new UsageError(`${name} needs a value.`);
      values.set(name, [...(values.get(name) ?? []), value]);
    } else if (BOOLEAN.has(name)) {
      flags.add(name);
    } else {
      throw new UsageError(arg.startsWith('-') ? `Unknown option ${arg}.` : `mcp takes no arguments (got ${arg}).`);
    }
  }
  const one = (name: string): string | undefined => values.get(name)?.at(-1);
  const approve = one('--approve') ?? 'client';
  if (!APPROVAL_MODES.includes(approve as ApprovalMode)) {
    throw new UsageError(`--approve ${approve}: use ${APPROVAL_MODES.join(', ')}.`);
  }
  const http = flags.has('--http');
  for (const httpOnly of ['--port', '--host', '--idle-timeout', '--roots-under', '--allow-origin', '--allow-host']) {
    if (!http && values.has(httpOnly)) throw new UsageError(`${httpOnly} applies to --http only.`);
  }
  const rootsBase = one('--roots-under');
  return {
    ...(one('--cwd') ? { cwd: one('--cwd') as string } : {}),
    ...(one('--surface') ? { surface: one('--surface') as string } : {}),
    approve: approve as ApprovalMode,
    fileTools: flags.has('--file-tools'),
    http,
    port: integer('--port', one('--port') ?? '8808', 0, 65535),
    host: one('--host') ?? '127.0.0.1',
    idleTimeoutSeconds: integer('--idle-timeout', one('--idle-timeout') ?? '1800', 1, 7 * 24 * 3600),
    ...(rootsBase ? { rootsBase } : {}),
    allowedOrigins: values.get('--allow-origin') ?? [],
    allowedHosts: values.get('--allow-host') ?? [],
    help: flags.has('--help') || flags.has('-h'),
  };
}

function integer(name: string, value: string, min: number, max: number): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < min || n > max) throw new UsageError(`${name} needs a whole number from ${min} to ${max} (got ${value}).`);
  return n;
}
