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

/** Tool schemas shaped for the Anthropic Messages API `tools` parameter. */
export function toAnthropicTools(
  schemas: readonly ToolSchema[],
): { name: string; description: string; input_schema: JsonSchema }[] {
  return schemas.map((s) => ({ name: s.name, description: s.description, input_schema: s.inputSchema }));
}

/** Tool schemas shaped for the OpenAI APIs: Chat Completions (default) or Responses. */
export function toOpenAITools(
  schemas: readonly ToolSchema[],
  api: 'chat' | 'responses' = 'chat',
): (
  | { type: 'function'; function: { name: string; description: string; parameters: JsonSchema } }
  | { type: 'function'; name: string; description: string; parameters: JsonSchema }
)[] {
  return schemas.map((s) =>
    api === 'chat'
      ? { type: 'function' as const, function: { name: s.name, description: s.description, parameters: s.inputSchema } }
      : { type: 'function' as const, name: s.name, description: s.description, parameters: s.inputSchema },
  );
}
