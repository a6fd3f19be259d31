import type { z } from 'zod';

type Def = {
  readonly type: string;
  readonly shape?: Record<string, z.ZodType>;
  readonly innerType?: z.ZodType;
  readonly element?: z.ZodType;
  readonly in?: z.ZodType;
};

const NUMERIC = /^\s*-?\d+(?:\.\d+)?\s*$/;

/**
 * The arguments with every numeric string given for a number parameter turned into that number, at any depth of
 * objects and arrays. Models often quote numbers (`"line": "59"`); the meaning is not in doubt, so refusing the call
 * would only cost a turn. A parameter that accepts strings too (a union) keeps what it was given. The input is not
 * changed; parts without such a string are returned as they are.
 */
export function coerceNumericStrings(schema: z.ZodType, value: unknown): unknown {
  const def = unwrap(schema);
  if (def.type === 'number' && typeof value === 'string' && NUMERIC.test(value)) return Number(value);
  if (def.type === 'object' && def.shape && isRecord(value)) {
    let copy: Record<string, unknown> | undefined;
    for (const [key, field] of Object.entries(def.shape)) {
      if (!Object.hasOwn(value, key)) continue;
      const item = value[key];
      const next = coerceNumericStrings(field, item);
      if (next === item) continue;
      copy ??= { ...value };
      copy[key] = next;
    }
    return copy ?? value;
  }
  if (def.type === 'array' && def.element && Array.isArray(value)) {
    const element = def.element;
    const items = value.map((item) => coerceNumericStrings(element, item));
    return items.some((item, i) => item !== value[i]) ? items : value;
  }
  return value;
}

/** The definition under optional, default, nullable, readonly and pipe wrappers. */
function unwrap(schema: z.ZodType): Def {
  let def = schema._zod.def as Def;
  for (let depth = 0; depth < 16; depth++) {
    const inner = def.innerType ?? (def.type === 'pipe' ? def.in : undefined);
    if (!inner) break;
    def = inner._zod.def as Def;
  }
  return def;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
