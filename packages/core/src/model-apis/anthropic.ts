import type { JsonSchema, ToolSchema } from '../schema.js';

/** A tool's input schema as Anthropic's Messages API takes it: always an object schema. */
export interface AnthropicInputSchema {
  type: 'object';
  properties?: unknown;
  required?: string[];
  [key: string]: unknown;
}

/** A tool as Anthropic's Messages API takes it in `tools` (assignable to the SDK's `Anthropic.Tool`). */
export interface AnthropicTool {
  name: string;
  description: string;
  input_schema: AnthropicInputSchema;
}

/** Tool schemas shaped for the Anthropic Messages API `tools` parameter. */
export function toAnthropicTools(schemas: readonly ToolSchema[]): AnthropicTool[] {
  return schemas.map((s) => ({ name: s.name, description: s.description, input_schema: objectSchema(s.inputSchema) }));
}

/** The schema with its `type: "object"` typed as such (every tool's parameters are a zod object). */
function objectSchema(schema: JsonSchema): AnthropicInputSchema {
  const { required, ...rest } = schema as Record<string, unknown>;
  return {
    ...rest,
    type: 'object',
    ...(Array.isArray(required) ? { required: required.map(String) } : {}),
  };
}
