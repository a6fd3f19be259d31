import type { z } from 'zod';

type Def = {
  readonly type: string;
  readonly shape?: Record<string, z.ZodType>;
  readonly innerType?: z.ZodType;
  readonly element?: z.ZodType;
  readonly in?: z.ZodType;
};

const optionalNotNull = new WeakMap<z.ZodType, boolean>();

/**
 * The arguments with every `null` given for an optional parameter left out, at any depth of objects and arrays.
 *
 * OpenAI's strict mode makes every property required and lets the model write `null` for the optional ones; to the
 * tool, that `null` means "not given" (so a default applies). A parameter that itself accepts `null` keeps it.
 * The input is not changed; parts without such a `null` are returned as they are.
 */
export function dropNullOptionals(schema: z.ZodType, value: unknown): unknown {
  const def = unwrap(schema);
  if (def.type === 'object' && def.shape && isRecord(value)) {
    let copy: Record<string, unknown> | undefined;
    for (const [key, field] of Object.entries(def.shape)) {
      if (!Object.hasOwn(value, key)) continue;
      const item = value[key];
      const next = item === null && isOptionalNotNull(field) ? undefined : dropNullOptionals(field, item);
      if (next === item) continue;
      copy ??= { ...value };
      if (next === undefined) delete copy[key];
      else copy[key] = next;
    }
    return copy ?? value;
  }
  if (def.type === 'array' && def.element && Array.isArray(value)) {
    const element = def.element;
    const items = value.map((item) => dropNullOptionals(element, item));
    return items.some((item, i) => item !== value[i]) ? items : value;
  }
  return value;
}

/** The definition under optional, default, nullable, readonly and pipe wrappers: where the object or array is. */
function unwrap(schema: z.ZodType): Def {
  let def = schema._zod.def as Def;
  for (let depth = 0; depth < 16; depth++) {
    const inner = def.innerType ?? (def.type === 'pipe' ? def.in : undefined);
    if (!inner) break;
    def = inner._zod.def as Def;
  }
  return def;
}

function isOptionalNotNull(field: z.ZodType): boolean {
  let known = optionalNotNull.get(field);
  if (known === undefined) {
    known = field._zod.optin !== undefined && !field.safeParse(null).success;
    optionalNotNull.set(field, known);
  }
  return known;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
