import type { z } from 'zod';

type Def = {
  readonly type: string;
  readonly shape?: Record<string, z.ZodType>;
  readonly innerType?: z.ZodType;
  readonly element?: z.ZodType;
  readonly in?: z.ZodType;
};

/** What a {@link rewriteArguments} step returns to leave an object's property out. */
export const OMIT: unique symbol = Symbol('omit');

/**
 * The arguments with `step` applied to every value against its schema, at any depth of objects and arrays: a step
 * that returns another value replaces it (and {@link OMIT} leaves an object's property out); one that returns the
 * value as it is lets the walk go into it. The input is not changed; parts nothing was done to are returned as they
 * are. One walk for the small repairs validation makes before zod reads the arguments.
 */
export function rewriteArguments(schema: z.ZodType, value: unknown, step: (schema: z.ZodType, value: unknown) => unknown): unknown {
  const def = unwrap(schema);
  if (def.type === 'object' && def.shape && isRecord(value)) {
    let copy: Record<string, unknown> | undefined;
    for (const [key, field] of Object.entries(def.shape)) {
      if (!Object.hasOwn(value, key)) continue;
      const item = value[key];
      const stepped = step(field, item);
      const next = stepped === item ? rewriteArguments(field, item, step) : stepped;
      if (next === item) continue;
      copy ??= { ...value };
      if (next === OMIT) delete copy[key];
      else copy[key] = next;
    }
    return copy ?? value;
  }
  if (def.type === 'array' && def.element && Array.isArray(value)) {
    const element = def.element;
    const items = value.map((item) => {
      const stepped = step(element, item);
      // An array keeps its length: OMIT applies to object properties only.
      return stepped === item || stepped === OMIT ? rewriteArguments(element, item, step) : stepped;
    });
    return items.some((item, i) => item !== value[i]) ? items : value;
  }
  return value;
}

/** The definition under optional, default, nullable, readonly and pipe wrappers: where the value's own type is. */
export function unwrap(schema: z.ZodType): Def {
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
