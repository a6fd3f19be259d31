import { z } from 'zod';
import type { AnyToolDefinition } from './tool.js';

/** A JSON Schema object, as model APIs take it. */
export type JsonSchema = { readonly [key: string]: unknown };

/** A tool as a model API sees it: name, description and the JSON Schema of its arguments. */
export interface ToolSchema {
  readonly name: string;
  readonly description: string;
  readonly inputSchema: JsonSchema;
}

const cache = new WeakMap<AnyToolDefinition, ToolSchema>();

/**
 * The JSON Schema of a tool, from its zod parameters (the input side: fields with defaults are optional).
 * Computed once per definition.
 */
export function toolSchema(tool: AnyToolDefinition): ToolSchema {
  const cached = cache.get(tool);
  if (cached) return cached;
  const { $schema: _dialect, ...inputSchema } = z.toJSONSchema(tool.parameters, {
    io: 'input',
    unrepresentable: 'any',
    override: ({ jsonSchema }) => dropSafeIntegerBounds(jsonSchema),
  }) as Record<string, unknown>;
  // The input side of a stripping object leaves extra keys open, but the registry refuses unknown arguments by
  // name; the schema says so, which is also what OpenAI's strict mode wants.
  if (inputSchema['type'] === 'object' && !('additionalProperties' in inputSchema)) {
    inputSchema['additionalProperties'] = false;
  }
  const schema: ToolSchema = Object.freeze({ name: tool.name, description: tool.description, inputSchema });
  cache.set(tool, schema);
  return schema;
}

/**
 * zod's `.int()` bounds every integer by ±(2^53 − 1): noise to a model, and a number some APIs refuse. The registry
 * still checks them; only the schema leaves them out.
 */
function dropSafeIntegerBounds(node: Record<string, unknown>): void {
  if (node['minimum'] === Number.MIN_SAFE_INTEGER) delete node['minimum'];
  if (node['maximum'] === Number.MAX_SAFE_INTEGER) delete node['maximum'];
}
