import { scanLines } from './lexer.js';

/** The outcome of rewriting a cell: plain Python, or a sentence telling the model what to write instead. */
export type Rewrite = { readonly code: string; readonly rewritten: readonly string[] } | { readonly error: string };

/** The IPython idioms eval understands, for error messages and the tool description. */
export const SUPPORTED_IDIOMS = '%pip, %cd, !cmd, x = !cmd, %%bash, %%sh, %%timeit, %timeit, %env, %matplotlib, obj?';

/** Advice for magics people reach for that eval does not run. */
const ADVICE: Readonly<Record<string, string>> = {
  writefile: 'write the file with tool("write", {"path": ..., "content": ...}) so the harness sees the change',
  run: 'import the module, or exec(open(path).read())',
  load: 'read the file with tool("read", {"path": ...})',
  time: 'use %timeit, or time.perf_counter() around the code',
  capture: 'use contextlib.redirect_stdout(io.StringIO())',
  load_ext: 'import the module and use importlib.reload(module) after changing it',
  autoreload: 'use importlib.reload(module) after changing it',
  who: 'use dir()',
  whos: 'use dir()',
  debug: 'print the values you need; post-mortem debugging is not available in eval',
  pdb: 'print the values you need; debugging is not available in eval',
  conda: 'use %pip',
  sx: 'use x = !cmd',
  system: 'use x = !cmd',
  html: 'use IPython.display.display(IPython.display.HTML(...))',
  javascript: 'run JavaScript with language "javascript"',
  js: 'run JavaScript with language "javascript"',
};

const IDENT_CHAIN = /^[A-Za-z_][\w.]*$/;

/**
 * Rewrites the IPython idioms a model types by reflex into plain Python calling the `_agent_tools` helpers that
 * every eval Python kernel defines. Line magics keep their line, so line numbers in tracebacks stay right.
 */
export function rewritePython(cellSource: string): Rewrite {
  // Python reads "\r\n" and a lone "\r" as line ends; the idioms are found line by line, so read them the same way.
  const source = cellSource.replace(/\r\n?/g, '\n');
  const cell = rewriteCellMagic(source);
  if (cell) return cell;
  const rewritten: string[] = [];
  const out: string[] = [];
  for (const { text, statementStart } of scanLines(source)) {
    if (!statementStart) {
      out.push(text);
      continue;
    }
    const line = rewriteLine(text);
    if ('error' in line) return line;
    if (line.idiom) rewritten.push(line.idiom);
    out.push(line.code);
  }
  return { code: out.join('\n'), rewritten };
}

function rewriteCellMagic(source: string): Rewrite | undefined {
  const match = /^(?:[ \t]*\n)*%%(\w+)([^\n]*)(?:\n([\s\S]*))?$/.exec(source);
  if (!match) return undefined;
  const [, name = '', rest = '', body = ''] = match;
  const args = rest.trim();
  switch (name) {
    case 'bash':
    case 'sh':
      return { code: `_agent_tools.cell_shell(${pyString(body)}, ${pyString(name)})`, rewritten: [`%%${name}`] };
    case 'timeit': {
      const options = timeitOptions(args);
      if ('error' in options) return options;
      return {
        code: `_agent_tools.timeit(${pyString(body)}, ${pyString(options.rest || 'pass')}, globals()${options.kwargs})`,
        rewritten: ['%%timeit'],
      };
    }
    default:
      return { error: unsupported(`%%${name}`, name) };
  }
}

function rewriteLine(text: string): { code: string; idiom?: string } | { error: string } {
  const indentMatch = /^[ \t]*/.exec(text);
  const indent = indentMatch?.[0] ?? '';
  const body = text.slice(indent.length);

  const assigned = /^([A-Za-z_][\w]*(?:\s*,\s*[A-Za-z_][\w]*)*)\s*=\s*!(.*)$/.exec(body);
  if (assigned) {
    return { code: `${indent}${assigned[1]} = _agent_tools.shell_lines(${pyString(assigned[2] ?? '')})`, idiom: 'x = !cmd' };
  }
  if (body.startsWith('!')) {
    return { code: `${indent}_agent_tools.shell(${pyString(body.slice(1).trim())})`, idiom: '!cmd' };
  }
  if (body.startsWith('%%')) {
    const name = /^%%(\w*)/.exec(body)?.[1] ?? '';
    return { error: `\`%%${name}\` must be the first line of the cell: a cell magic applies to the whole cell.` };
  }
  if (body.startsWith('%')) {
    const match = /^%(\w+)\s*(.*)$/.exec(body);
    if (!match) return { error: `\`${body.slice(0, 30)}\` is not Python. ${supportedSentence()}` };
    const [, name = '', rawArgs = ''] = match;
    const args = rawArgs.trim();
    switch (name) {
      case 'pip':
        return { code: `${indent}_agent_tools.pip(${pyString(args)})`, idiom: '%pip' };
      case 'cd':
        return { code: `${indent}_agent_tools.cd(${pyString(args)})`, idiom: '%cd' };
      case 'env':
        return { code: `${indent}_agent_tools.env(${pyString(args)})`, idiom: '%env' };
      case 'matplotlib':
        return { code: `${indent}pass  # %matplotlib: figures come back as images anyway`, idiom: '%matplotlib' };
      case 'timeit': {
        const options = timeitOptions(args);
        if ('error' in options) return options;
        if (!options.rest) return { error: '`%timeit` needs a statement to time, e.g. `%timeit sorted(data)`.' };
        return {
          code: `${indent}_agent_tools.timeit(${pyString(options.rest)}, "pass", globals()${options.kwargs})`,
          idiom: '%timeit',
        };
      }
      default:
        return { error: unsupported(`%${name}`, name) };
    }
  }
  const help = /^(\?{1,2})?([A-Za-z_][\w.]*)(\?{1,2})?\s*$/.exec(body);
  if (help && (help[1] || help[3]) && IDENT_CHAIN.test(help[2] ?? '')) {
    return { code: `${indent}help(${help[2]})`, idiom: 'obj?' };
  }
  return { code: text };
}

/** Reads `-n N -r R` off a %timeit line; the rest is the statement (line magic) or the setup (cell magic). */
function timeitOptions(args: string): { rest: string; kwargs: string } | { error: string } {
  let rest = args;
  let kwargs = '';
  for (;;) {
    const option = /^-([nr])\s*(\d+)\s*/.exec(rest);
    if (option) {
      kwargs += `, ${option[1] === 'n' ? 'number' : 'repeat'}=${Number(option[2])}`;
      rest = rest.slice(option[0].length);
      continue;
    }
    const flag = /^-([a-zA-Z])\b\s*/.exec(rest);
    if (flag) {
      return { error: `\`%timeit -${flag[1]}\` is not supported; eval's %timeit takes -n LOOPS and -r REPEATS only.` };
    }
    return { rest: rest.trim(), kwargs };
  }
}

function unsupported(magic: string, name: string): string {
  const advice = ADVICE[name];
  return `\`${magic}\` is not supported in eval cells${advice ? `: ${advice}` : ''}. ${supportedSentence()}`;
}

function supportedSentence(): string {
  return `Eval rewrites only these IPython idioms: ${SUPPORTED_IDIOMS}; write everything else as plain Python.`;
}

/** A Python string literal: JSON's escapes are all valid in Python. */
function pyString(text: string): string {
  return JSON.stringify(text);
}
