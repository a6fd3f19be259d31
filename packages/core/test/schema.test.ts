import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createRegistry, defineTool, textResult, toAnthropicTools, toOpenAITools, toolSchema } from '../src/index.js';

const hover = defineTool({
  name: 'hover',
  tier: 'read',
  description: 'Show the signature of a symbol.',
  parallelSafe: true,
  parameters: z.object({
    file: z.string().describe('Workspace-relative path.'),
    line: z.number().int().min(1),
    occurrence: z.number().int().min(1).default(1),
    mode: z.enum(['short', 'full']).optional(),
  }),
  execute: () => textResult(''),
});

describe('tool schemas', () => {
  it("is the zod schema's input JSON Schema: defaults make fields optional, no $schema dialect key", () => {
    expect(toolSchema(hover)).toMatchInlineSnapshot(`
      {
        "description": "Show the signature of a symbol.",
        "inputSchema": {
          "additionalProperties": false,
          "properties": {
            "file": {
              "description": "Workspace-relative path.",
              "type": "string",
            },
            "line": {
              "maximum": 9007199254740991,
              "minimum": 1,
              "type": "integer",
            },
            "mode": {
              "enum": [
                "short",
                "full",
              ],
              "type": "string",
            },
            "occurrence": {
              "default": 1,
              "maximum": 9007199254740991,
              "minimum": 1,
              "type": "integer",
            },
          },
          "required": [
            "file",
            "line",
          ],
          "type": "object",
        },
        "name": "hover",
      }
    `);
  });

  it('is computed once per definition', () => {
    expect(toolSchema(hover)).toBe(toolSchema(hover));
  });

  it('is shaped for the Anthropic and OpenAI tool APIs', async () => {
    await using registry = createRegistry({ tools: [hover] });
    const schemas = registry.schemas();
    const [anthropic] = toAnthropicTools(schemas);
    expect(Object.keys(anthropic ?? {})).toEqual(['name', 'description', 'input_schema']);
    expect(anthropic?.input_schema['type']).toBe('object');
    expect(toOpenAITools(schemas)[0]).toEqual({
      type: 'function',
      function: { name: 'hover', description: 'Show the signature of a symbol.', parameters: schemas[0]?.inputSchema },
    });
    expect(toOpenAITools(schemas, 'responses')[0]).toEqual({
      type: 'function',
      name: 'hover',
      description: 'Show the signature of a symbol.',
      parameters: schemas[0]?.inputSchema,
    });
  });
});
