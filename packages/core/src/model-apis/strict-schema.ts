import { CoreError } from '../errors.js';
import type { JsonSchema } from '../schema.js';

type Node = Record<string, unknown>;

/**
 * The keywords OpenAI's strict mode accepts in every model that has it. Everything else (`default`, `minLength`,
 * `maxLength`, `pattern`, `format`, `minimum`, `maxItems`, ...) is refused by some strict-mode model, so it is left
 * out of the schema and said in the description instead; the registry still enforces it when the call arrives.
 */
const KEPT = new Set([
  'type',
  'properties',
  'required',
  'additionalProperties',
  'items',
  'enum',
  'const',
  'anyOf',
  'description',
  'title',
  '$ref',
  '$defs',
]);

/**
 * The schema in the form OpenAI's strict mode (`strict: true`) accepts: every object closed, every property
 * required, the optional ones nullable (the registry reads `null` as "not given", so defaults still apply), and no
 * keyword strict mode refuses. Constraints that had to go are appended to the property's description, so the model
 * still reads them. A schema strict mode cannot express at all (a value of any type, a map with open keys,
 * `allOf`, `not`) throws a `CoreError` naming the place: give that tool `strict: false`.
 */
export function toStrictSchema(schema: JsonSchema, name = 'the schema'): JsonSchema {
  return strictNode(schema as Node, name);
}

function strictNode(node: Node, at: string): Node {
  const out: Node = {};
  const notes: string[] = [];
  for (const [key, value] of Object.entries(node)) {
    if (key === 'oneOf') out['anyOf'] = value; // every branch is closed and typed, so "one of" is "any of"
    else if (KEPT.has(key)) out[key] = value;
    else if (INEXPRESSIBLE.has(key)) throw inexpressible(at, `uses \`${key}\``);
    else notes.push(describeKeyword(key, value));
  }
  if (!('type' in out) && !('anyOf' in out) && !('$ref' in out) && !('const' in out) && !('enum' in out)) {
    throw inexpressible(at, 'accepts a value of any type');
  }
  if (out['additionalProperties'] !== undefined && out['additionalProperties'] !== false) {
    throw inexpressible(at, 'accepts keys it does not name');
  }
  if (isNode(out['properties'])) {
    const required = new Set(Array.isArray(node['required']) ? (node['required'] as string[]) : []);
    const properties: Node = {};
    for (const [name, child] of Object.entries(out['properties'])) {
      const strict = strictNode(isNode(child) ? child : {}, `${at}.${name}`);
      properties[name] = required.has(name) ? strict : nullable(strict);
    }
    out['properties'] = properties;
    out['required'] = Object.keys(properties);
  }
  if (out['type'] === 'object' || isNode(out['properties'])) {
    out['additionalProperties'] = false;
    out['properties'] ??= {};
    out['required'] ??= [];
  }
  if (isNode(out['items'])) out['items'] = strictNode(out['items'], `${at}[]`);
  if (Array.isArray(out['anyOf'])) {
    out['anyOf'] = out['anyOf'].map((v, i) => strictNode(isNode(v) ? v : {}, `${at}|${i}`));
  }
  if (isNode(out['$defs'])) {
    const defs = Object.entries(out['$defs']).map(([k, v]) => [k, strictNode(isNode(v) ? v : {}, `$defs.${k}`)]);
    out['$defs'] = Object.fromEntries(defs);
  }
  const said = notes.filter(Boolean);
  if (said.length > 0) {
    const base = typeof out['description'] === 'string' ? out['description'].trimEnd() : '';
    out['description'] = [base && (/[.!?:)]$/.test(base) ? base : `${base}.`), ...said].filter(Boolean).join(' ');
  }
  return out;
}

/** Keywords whose meaning strict mode cannot carry, so dropping them would change what is accepted. */
const INEXPRESSIBLE = new Set(['allOf', 'not', 'if', 'then', 'else', 'patternProperties', 'dependentSchemas', 'prefixItems']);

function inexpressible(at: string, what: string): CoreError {
  return new CoreError(
    'invalid_definition',
    `${at} ${what}, which OpenAI's strict mode cannot express; convert this tool with strict: false.`,
  );
}

/** The node, also admitting `null`: in its type list (and enum), or as a further `anyOf` branch. */
function nullable(node: Node): Node {
  const type = node['type'];
  if (typeof type === 'string' && !('const' in node)) {
    if (type === 'null') return node;
    const enumValues = node['enum'];
    return {
      ...node,
      type: [type, 'null'],
      ...(Array.isArray(enumValues) && !enumValues.includes(null) ? { enum: [...enumValues, null] } : {}),
    };
  }
  if (Array.isArray(type) && !('const' in node) && !('enum' in node)) {
    return type.includes('null') ? node : { ...node, type: [...type, 'null'] };
  }
  if (Array.isArray(node['anyOf'])) {
    const branches = node['anyOf'] as Node[];
    if (branches.some((b) => b['type'] === 'null')) return node;
    return { ...node, anyOf: [...branches, { type: 'null' }] };
  }
  const { description, ...rest } = node;
  return { anyOf: [rest, { type: 'null' }], ...(description === undefined ? {} : { description }) };
}

/** A dropped keyword as a sentence for the model; empty for ones that carry nothing it needs. */
function describeKeyword(key: string, value: unknown): string {
  const v = JSON.stringify(value);
  switch (key) {
    case 'default':
      return `Default: ${v}.`;
    case 'minimum':
      return `At least ${v}.`;
    case 'exclusiveMinimum':
      return `Greater than ${v}.`;
    case 'maximum':
      return `At most ${v}.`;
    case 'exclusiveMaximum':
      return `Less than ${v}.`;
    case 'multipleOf':
      return `A multiple of ${v}.`;
    case 'minLength':
      return value === 1 ? 'Not empty.' : `At least ${v} characters.`;
    case 'maxLength':
      return `At most ${v} characters.`;
    case 'pattern':
      return `Matches the regular expression ${v}.`;
    case 'format':
      return `Format: ${v}.`;
    case 'minItems':
      return `At least ${v} items.`;
    case 'maxItems':
      return `At most ${v} items.`;
    case 'uniqueItems':
      return value === true ? 'Items are unique.' : '';
    case 'examples':
      return `For example: ${Array.isArray(value) ? value.map((e) => JSON.stringify(e)).join(', ') : v}.`;
    default:
      return '';
  }
}

function isNode(value: unknown): value is Node {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
