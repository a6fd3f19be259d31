import { VibeError } from './errors.js';

/**
 * The placeholders a command template may use, each replaced inside the argument it appears in: `{surface}` is the
 * name of the surface the run was started from, `{session}` the agent session the run starts or resumes.
 */
export const PLACEHOLDERS = ['brief', 'tier', 'label', 'id', 'run', 'surface', 'session'] as const;

const PLACEHOLDER = new RegExp(`\\{(${PLACEHOLDERS.join('|')})\\}`, 'g');

/** The values placeholders are replaced with; a missing `surface` or `session` becomes an empty string. */
export type TemplateValues = Readonly<Record<'brief' | 'tier' | 'label' | 'id' | 'run', string>> &
  Readonly<Partial<Record<'surface' | 'session', string>>>;

/**
 * Splits a command line into arguments the way a POSIX shell would for plain words: whitespace separates,
 * single quotes keep everything literally, double quotes keep spaces and honour `\"` and `\\`, a backslash outside
 * quotes escapes the next character. Nothing is expanded and no shell runs, so a brief can never be executed.
 */
export function splitCommandLine(line: string): string[] {
  const args: string[] = [];
  let current = '';
  let inWord = false;
  let quote: '"' | "'" | undefined;
  for (let i = 0; i < line.length; i++) {
    const c = line[i] as string;
    if (quote === "'") {
      if (c === "'") quote = undefined;
      else current += c;
    } else if (quote === '"') {
      if (c === '"') quote = undefined;
      else if (c === '\\' && (line[i + 1] === '"' || line[i + 1] === '\\')) current += line[++i];
      else current += c;
    } else if (c === "'" || c === '"') {
      quote = c;
      inWord = true;
    } else if (c === '\\' && i + 1 < line.length) {
      current += line[++i];
      inWord = true;
    } else if (/\s/.test(c)) {
      if (inWord) args.push(current);
      current = '';
      inWord = false;
    } else {
      current += c;
      inWord = true;
    }
  }
  if (quote) throw new VibeError('invalid_template', `The command template has an unclosed ${quote} quote: ${line}`);
  if (inWord) args.push(current);
  return args;
}

/** A template as arguments, checked: it must name a program. */
export function templateArgs(command: string | readonly string[]): string[] {
  const args = typeof command === 'string' ? splitCommandLine(command) : [...command];
  if (args.length === 0 || !args[0]) {
    throw new VibeError('invalid_template', 'The worker command template is empty; give the agent program and its arguments.');
  }
  return args;
}

/** Whether a template passes the brief as an argument (it has a `{brief}` placeholder). */
export function takesBriefArgument(args: readonly string[]): boolean {
  return uses(args, 'brief');
}

/** Whether a template uses a placeholder. */
export function uses(args: readonly string[], name: (typeof PLACEHOLDERS)[number]): boolean {
  return args.some((arg) => arg.includes(`{${name}}`));
}

/**
 * Expands a template for one run: placeholders replaced inside each argument (so a brief with spaces stays one
 * argument), and the tier's arguments spliced in where an argument is exactly `{tier_args}`, or else at the end
 * (not after the program name, which may be an interpreter running the agent's script).
 */
export function expandTemplate(args: readonly string[], values: TemplateValues, tierArgs: readonly string[] = []): string[] {
  const expanded: string[] = [];
  let spliced = false;
  for (const arg of args) {
    if (arg === '{tier_args}') {
      expanded.push(...tierArgs);
      spliced = true;
      continue;
    }
    expanded.push(arg.replace(PLACEHOLDER, (_, name: keyof TemplateValues) => values[name] ?? ''));
  }
  if (!spliced) expanded.push(...tierArgs);
  return expanded;
}
