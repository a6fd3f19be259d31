type Node = Record<string, unknown>;

/**
 * The keywords OpenAI documents for strict mode's JSON Schema subset (Structured Outputs, "Supported schemas"),
 * leaving out the type-specific ones that some strict-mode models refuse.
 */
const ALLOWED = new Set([
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
const TYPES = new Set(['string', 'number', 'integer', 'boolean', 'object', 'array', 'null']);

/**
 * Every way a tool's parameter schema breaks OpenAI's strict-mode rules, written from the documentation and
 * independent of the converter it checks: the root is an object; every object has `additionalProperties: false`
 * and lists every property in `required`; every value has a type (or is a union, a reference, a constant or an
 * enum); no keyword outside the supported subset; an enum of a nullable type includes `null`. Empty when it is fine.
 */
export function checkStrictSchema(schema: Node): string[] {
  const problems: string[] = [];
  if (schema['type'] !== 'object') problems.push('root: the root must be an object');
  walk(schema, 'root', problems);
  return problems;
}

function walk(node: Node, at: string, problems: string[]): void {
  for (const key of Object.keys(node)) {
    if (!ALLOWED.has(key)) problems.push(`${at}: keyword \`${key}\` is not supported in strict mode`);
  }
  const types = typeof node['type'] === 'string' ? [node['type']] : Array.isArray(node['type']) ? node['type'] : [];
  for (const type of types) if (!TYPES.has(type as string)) problems.push(`${at}: unknown type ${String(type)}`);
  if (types.length === 0 && !['anyOf', '$ref', 'const', 'enum'].some((k) => k in node)) {
    problems.push(`${at}: a value without a type`);
  }
  if (Array.isArray(node['enum']) && types.includes('null') && !node['enum'].includes(null)) {
    problems.push(`${at}: nullable, but its enum leaves out null`);
  }
  if (types.includes('object') || 'properties' in node) {
    if (node['additionalProperties'] !== false) problems.push(`${at}: an object without additionalProperties: false`);
    const properties = (node['properties'] ?? {}) as Record<string, Node>;
    const required = Array.isArray(node['required']) ? node['required'] : [];
    for (const name of Object.keys(properties)) {
      if (!required.includes(name)) problems.push(`${at}.${name}: not in required`);
      walk(properties[name] as Node, `${at}.${name}`, problems);
    }
  }
  if (node['items'] && typeof node['items'] === 'object') walk(node['items'] as Node, `${at}[]`, problems);
  if (Array.isArray(node['anyOf'])) {
    for (const [i, branch] of node['anyOf'].entries()) walk(branch as Node, `${at}|${i}`, problems);
  }
  if (node['$defs'] && typeof node['$defs'] === 'object') {
    for (const [name, def] of Object.entries(node['$defs'] as Record<string, Node>)) walk(def, `$defs.${name}`, problems);
  }
}
