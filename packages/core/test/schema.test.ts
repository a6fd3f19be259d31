import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineTool, textResult, toolSchema } from '../src/index.js';

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
});
