/** A command line the harness could not make sense of; exits with status 2. */
export class UsageError extends Error {
  override readonly name = 'UsageError';
}

/** The parsed command line. */
export interface CliArgs {
  readonly command: 'list' | 'call' | 'repl' | 'help';
  readonly tool?: string;
  /** The raw JSON arguments of `call` (`-` reads them from standard input). */
  readonly json?: string;
  readonly cwd?: string;
  readonly surface?: string;
  readonly asJson: boolean;
  readonly yes: boolean;
  readonly interactive: boolean;
  readonly timeoutSeconds?: number;
}

export const USAGE = `Usage:
  agent-tools list [--surface NAME] [--json] [--cwd DIR]
  agent-tools call TOOL [JSON-ARGS | -] [--cwd DIR] [--surface NAME] [--json] [--yes] [--timeout SECONDS]
  agent-tools repl [--cwd DIR] [--surface NAME] [--json] [--yes]
  agent-tools mcp [--cwd DIR] [--surface NAME] [--approve client|elicit|yes] [--file-tools] [--http ...]

  list         the tools a surface sees (--json: with their JSON Schemas)
  call         one call; prints the result (--json: {"isError","content","structured"});
               exit 0 for a success result, 1 for an error result, 2 for a usage error
  repl         a session: reads "TOOL JSON-ARGS" lines from standard input and answers each
               (--json: one JSON object per line); state lasts until end of input
  mcp          an MCP server over stdio, or Streamable HTTP with --http (agent-tools mcp --help)

  --cwd DIR        working directory the tools are confined to (default: the current directory)
  --surface NAME   default, plan or subagent (default: default)
  --yes            approve every write and exec call
  --interactive    treat standard input as a human at a terminal even when it is not one
  Without a terminal and without --yes, write and exec calls are refused.`;

const VALUE_FLAGS = new Set(['--cwd', '--surface', '--timeout']);
const BOOLEAN_FLAGS = new Set(['--json', '--yes', '--interactive', '--help', '-h']);

/** Parses the harness's command line, throwing {@link UsageError} for anything it does not accept. */
export function parseArgs(argv: readonly string[]): CliArgs {
  const positional: string[] = [];
  const values = new Map<string, string>();
  const flags = new Set<string>();
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string;
    const [name, inline] = arg.startsWith('--') && arg.includes('=') ? [arg.slice(0, arg.indexOf('=')), arg.slice(arg.indexOf('=') + 1)] : [arg, undefined];
    if (VALUE_FLAGS.has(name)) {
      const value = inline ?? argv[++i];
      if (value === undefined || value === '') throw new UsageError(`${name} needs a value.`);
      values.set(name, value);
    } else if (BOOLEAN_FLAGS.has(name)) {
      flags.add(name);
    } else if (arg.startsWith('--') || (arg.startsWith('-') && arg !== '-')) {
      throw new UsageError(`Unknown option ${arg}.`);
    } else {
      positional.push(arg);
    }
  }

  const [command, ...rest] = positional;
  const common = {
    asJson: flags.has('--json'),
    yes: flags.has('--yes'),
    interactive: flags.has('--interactive'),
    ...(values.has('--cwd') ? { cwd: values.get('--cwd') as string } : {}),
    ...(values.has('--surface') ? { surface: values.get('--surface') as string } : {}),
    ...timeout(values.get('--timeout')),
  };
  if (flags.has('--help') || flags.has('-h') || command === 'help') return { command: 'help', ...common };
  switch (command) {
    case 'list':
    case 'repl':
      if (rest.length > 0) throw new UsageError(`${command} takes no arguments (got ${rest.join(' ')}).`);
      return { command, ...common };
    case 'call': {
      const [tool, json, ...extra] = rest;
      if (!tool) throw new UsageError('call needs a tool name: agent-tools call TOOL [JSON-ARGS].');
      if (extra.length > 0) throw new UsageError(`call takes one JSON argument; quote it (got also ${extra.join(' ')}).`);
      return { command, tool, ...(json === undefined ? {} : { json }), ...common };
    }
    case undefined:
      throw new UsageError('No command given.');
    default:
      throw new UsageError(`Unknown command "${command}".`);
  }
}

function timeout(value: string | undefined): { timeoutSeconds?: number } {
  if (value === undefined) return {};
  const seconds = Number(value);
  if (!Number.isFinite(seconds) || seconds <= 0) throw new UsageError(`--timeout needs a positive number of seconds (got ${value}).`);
  return { timeoutSeconds: seconds };
}

/** Parses JSON arguments of a call, as a usage error when they are not a JSON object. */
export function parseCallArguments(text: string | undefined): unknown {
  if (text === undefined || text.trim() === '') return {};
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new UsageError(`The arguments are not valid JSON (${(error as Error).message}). Pass an object such as '{"path":"src/a.ts"}'.`);
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw new UsageError('The arguments must be a JSON object such as \'{"path":"src/a.ts"}\'.');
  }
  return value;
}
