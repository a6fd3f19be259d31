import type { ToolSchema } from '../schema.js';

/** A function as the Gemini API takes it (assignable to `@google/genai`'s `FunctionDeclaration`). */
export interface GeminiFunctionDeclaration {
  name: string;
  description: string;
  /** The JSON Schema as it is; Gemini reads it as JSON Schema, not as its older OpenAPI-subset `parameters`. */
  parametersJsonSchema: unknown;
}

/** A Gemini tool holding function declarations (assignable to `@google/genai`'s `Tool`). */
export interface GeminiTool {
  functionDeclarations: GeminiFunctionDeclaration[];
}

/**
 * Tool schemas shaped for the Gemini API: one tool with a function declaration per schema, for
 * `config: { tools: toGeminiTools(schemas) }`.
 */
export function toGeminiTools(schemas: readonly ToolSchema[]): GeminiTool[] {
  return [
    {
      functionDeclarations: schemas.map((s) => ({
        name: s.name,
        description: s.description,
        parametersJsonSchema: s.inputSchema,
      })),
    },
  ];
}
