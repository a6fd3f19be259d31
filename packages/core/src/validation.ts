import type { z } from 'zod';
import { dropNullOptionals } from './null-optionals.js';
import { coerceNumericStrings } from './numeric-strings.js';

/** The outcome of checking a call's arguments against a tool's schema. */
export type Validation<T> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly message: string };

/**
 * Checks arguments against a tool's zod object schema. On failure the message names every bad field, says what
 * was expected, and what to do; unknown fields are refused by name (a model passing `column` to a tool that
 * addresses by symbol should hear so, not have it silently dropped). A `null` given for an optional parameter
 * counts as not given: OpenAI's strict mode has the model send one for every optional parameter it leaves out. A
 * numeric string for a number parameter (`"line": "59"`) is taken as the number.
 */
export function validateArguments<P extends z.ZodType>(
  toolName: string,
  schema: P,
  args: unknown,
): Validation<z.output<P>> {
  const given = normalizeArguments(args);
  if (given === undefined) {
    return {
      ok: false,
      message: `Arguments for ${toolName} must be a JSON object (got ${describeValue(args)}). Call ${toolName} again with an object of named arguments.`,
    };
  }

  const input = coerceNumericStrings(schema, dropNullOptionals(schema, given)) as Record<string, unknown>;
  const problems: string[] = [];
  const known = objectKeys(schema);
  if (known) {
    for (const key of Object.keys(input)) {
      if (!known.includes(key)) {
        problems.push(
          `\`${key}\` is not an argument of ${toolName}; remove it (accepted: ${known.join(', ') || 'none'}).`,
        );
      }
    }
  }

  const parsed = schema.safeParse(input);
  if (parsed.success && problems.length === 0) return { ok: true, value: parsed.data };
  if (!parsed.success) {
    for (const issue of parsed.error.issues) problems.push(describeIssue(issue, input));
  }
  return {
    ok: false,
    message: [
      `Invalid arguments for ${toolName}:`,
      ...problems.map((p) => `- ${p}`),
      `Fix these arguments and call ${toolName} again.`,
    ].join('\n'),
  };
}

/** Accepts an object, or a JSON string of one (some models send arguments encoded twice); `{}` for nothing. */
function normalizeArguments(args: unknown): Record<string, unknown> | undefined {
  if (args === undefined || args === null) return {};
  if (typeof args === 'string') {
    try {
      return normalizeArguments(JSON.parse(args) as unknown);
    } catch {
      // JSON.parse raises only SyntaxError: the text is not JSON, which the caller reports.
      return undefined;
    }
  }
  if (typeof args === 'object' && !Array.isArray(args)) return args as Record<string, unknown>;
  return undefined;
}

/** The keys of a strict or stripping object schema; `undefined` when it accepts any key. */
function objectKeys(schema: z.ZodType): string[] | undefined {
  const def = schema._zod.def as { type: string; shape?: Record<string, unknown>; catchall?: { _zod: { def: { type: string } } } };
  if (def.type !== 'object' || !def.shape) return undefined;
  const catchall = def.catchall?._zod.def.type;
  if (catchall && catchall !== 'never') return undefined;
  return Object.keys(def.shape);
}

function describeIssue(issue: z.core.$ZodIssue, input: Record<string, unknown>): string {
  const field = issue.path.length ? `\`${formatPath(issue.path)}\`` : 'the arguments';
  const received = valueAt(input, issue.path);
  switch (issue.code) {
    case 'invalid_type':
      if (received === undefined) return `${field} is required (expected ${expectedText(issue.expected)}).`;
      return `${field} must be ${article(expectedText(issue.expected))}, got ${describeValue(received)}.`;
    case 'too_small':
      // A schema's own message (`.min(1, 'the brief is empty; ...')`) says it better than any general wording.
      if (!isDefaultMessage(issue.message)) return custom(field, issue.message, received);
      return `${field} ${bound(issue.origin, 'least', issue.minimum, issue.inclusive)}${oneBased(issue.path, issue.minimum)}, got ${describeValue(received)}.`;
    case 'too_big':
      if (!isDefaultMessage(issue.message)) return custom(field, issue.message, received);
      return `${field} ${bound(issue.origin, 'most', issue.maximum, issue.inclusive)}, got ${describeValue(received)}.`;
    case 'invalid_value':
      if (received === undefined) return `${field} is required (one of ${issue.values.map((v) => JSON.stringify(v)).join(', ')}).`;
      return `${field} must be one of ${issue.values.map((v) => JSON.stringify(v)).join(', ')}, got ${describeValue(received)}.`;
    case 'unrecognized_keys':
      return `${field} has unknown keys ${issue.keys.map((k) => `\`${k}\``).join(', ')}; remove them.`;
    default:
      return custom(field, issue.message, received);
  }
}

function formatPath(path: readonly PropertyKey[]): string {
  return path.reduce<string>((acc, key) => {
    if (typeof key === 'number') return `${acc}[${key}]`;
    return acc ? `${acc}.${String(key)}` : String(key);
  }, '');
}

function valueAt(input: unknown, path: readonly PropertyKey[]): unknown {
  let current: unknown = input;
  for (const key of path) {
    if (current === null || typeof current !== 'object') return undefined;
    current = (current as Record<PropertyKey, unknown>)[key];
  }
  return current;
}

function custom(field: string, message: string, received: unknown): string {
  return `${field}: ${message}${received === undefined ? '' : ` (got ${describeValue(received)})`}.`;
}

/** Whether zod wrote the message itself ("Too small: expected string to have >=1 characters"). */
function isDefaultMessage(message: string): boolean {
  return /^Too (small|big):/.test(message);
}

/** "must be 1 or more", "must not be empty", "must have at most 10 items", "must be at most 5,000 characters". */
function bound(origin: string, side: 'least' | 'most', limit: number | bigint, inclusive = true): string {
  const n = Number(limit);
  const shown = n.toLocaleString('en-US');
  if (origin === 'number' || origin === 'int' || origin === 'bigint') {
    if (!inclusive) return `must be ${side === 'least' ? 'more' : 'less'} than ${shown}`;
    return `must be ${shown} ${side === 'least' ? 'or more' : 'or less'}`;
  }
  const [one, many] = origin === 'string' ? ['character', 'characters'] : origin === 'array' || origin === 'set' ? ['item', 'items'] : ['entry', 'entries'];
  if (side === 'least' && n === 1 && inclusive) return origin === 'string' ? 'must not be empty' : `must have at least one ${one}`;
  return `must have at ${side} ${shown} ${n === 1 ? one : many}`;
}

/** Names the convention when a position field is refused for being below 1. */
function oneBased(path: readonly PropertyKey[], minimum: number | bigint): string {
  const name = String(path[path.length - 1] ?? '');
  return Number(minimum) === 1 && /line|column|number/i.test(name) ? ` (${name.includes('line') ? 'lines are' : 'it is'} 1-based)` : '';
}

function expectedText(expected: string): string {
  return expected === 'int' ? 'whole number' : expected;
}

function article(expected: string): string {
  return /^[aeiou]/.test(expected) ? `an ${expected}` : `a ${expected}`;
}

function describeValue(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'string') {
    const shown = value.length > 40 ? `${value.slice(0, 40)}…` : value;
    return `the string ${JSON.stringify(shown)}`;
  }
  if (typeof value === 'object') return 'an object';
  return `${typeof value} ${String(value)}`;
}
