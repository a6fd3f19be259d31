import type { JsonSchema, ToolSchema } from '../schema.js';
import { toStrictSchema } from './strict-schema.js';

const strictSchemas = new WeakMap<ToolSchema, JsonSchema>();

/** A function tool as OpenAI's Chat Completions API takes it (assignable to the SDK's `ChatCompletionTool`). */
export interface OpenAIChatTool {
  type: 'function';
  function: { name: string; description: string; parameters: Record<string, unknown>; strict: boolean };
}

/** A function tool as OpenAI's Responses API takes it (assignable to the SDK's `Responses.FunctionTool`). */
export interface OpenAIResponsesTool {
  type: 'function';
  name: string;
  description: string;
  parameters: Record<string, unknown>;
  strict: boolean;
}

/** How tool schemas are shaped for OpenAI. */
export interface OpenAIToolOptions {
  /**
   * Strict mode (default `false`): the model's arguments always match the schema. The schema is rewritten for it:
   * every property required, the optional ones nullable (the registry treats `null` as not given), and keywords
   * strict mode refuses moved into descriptions. `false` is sent explicitly: the Responses API otherwise
   * normalises the schema into strict mode itself, and the model then fills in every optional parameter.
   */
  readonly strict?: boolean;
}

/** Tool schemas shaped for OpenAI's Chat Completions API (`tools` of `chat.completions.create`). */
export function toOpenAITools(schemas: readonly ToolSchema[], api?: 'chat', options?: OpenAIToolOptions): OpenAIChatTool[];
/** Tool schemas shaped for OpenAI's Responses API (`tools` of `responses.create`). */
export function toOpenAITools(
  schemas: readonly ToolSchema[],
  api: 'responses',
  options?: OpenAIToolOptions,
): OpenAIResponsesTool[];
export function toOpenAITools(
  schemas: readonly ToolSchema[],
  api: 'chat' | 'responses' = 'chat',
  options: OpenAIToolOptions = {},
): OpenAIChatTool[] | OpenAIResponsesTool[] {
  const strict = options.strict === true;
  const shaped = schemas.map((s) => ({
    name: s.name,
    description: s.description,
    parameters: { ...(strict ? strictSchemaOf(s) : s.inputSchema) },
    strict,
  }));
  if (api === 'responses') return shaped.map((f) => ({ type: 'function' as const, ...f }));
  return shaped.map((f) => ({ type: 'function' as const, function: f }));
}

/** The strict form of a tool's schema, computed once per schema (schemas are cached per definition). */
function strictSchemaOf(schema: ToolSchema): JsonSchema {
  let strict = strictSchemas.get(schema);
  if (!strict) {
    strict = toStrictSchema(schema.inputSchema, schema.name);
    strictSchemas.set(schema, strict);
  }
  return strict;
}
