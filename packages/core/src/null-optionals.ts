import type { z } from 'zod';
import { OMIT, rewriteArguments } from './argument-walk.js';

const optionalNotNull = new WeakMap<z.ZodType, boolean>();

/**
 * The arguments with every `null` given for an optional parameter left out, at any depth of objects and arrays.
 *
 * OpenAI's strict mode makes every property required and lets the model write `null` for the optional ones; to the
 * tool, that `null` means "not given" (so a default applies). A parameter that itself accepts `null` keeps it.
 * The input is not changed; parts without such a `null` are returned as they are.
 */
export function dropNullOptionals(schema: z.ZodType, value: unknown): unknown {
  return rewriteArguments(schema, value, (field, item) => (item === null && isOptionalNotNull(field) ? OMIT : item));
}

function isOptionalNotNull(field: z.ZodType): boolean {
  let known = optionalNotNull.get(field);
  if (known === undefined) {
    known = field._zod.optin !== undefined && !field.safeParse(null).success;
    optionalNotNull.set(field, known);
  }
  return known;
}
