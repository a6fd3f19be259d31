import type { z } from 'zod';
import { rewriteArguments, unwrap } from './argument-walk.js';

const NUMERIC = /^\s*-?\d+(?:\.\d+)?\s*$/;

/**
 * The arguments with every numeric string given for a number parameter turned into that number, at any depth of
 * objects and arrays. Models often quote numbers (`"line": "59"`); the meaning is not in doubt, so refusing the call
 * would only cost a turn. A parameter that accepts strings too (a union) keeps what it was given.
 */
export function coerceNumericStrings(schema: z.ZodType, value: unknown): unknown {
  const step = (field: z.ZodType, item: unknown): unknown =>
    unwrap(field).type === 'number' && typeof item === 'string' && NUMERIC.test(item) ? Number(item) : item;
  return rewriteArguments(schema, step(schema, value), step);
}
