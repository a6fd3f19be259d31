import type Anthropic from '@anthropic-ai/sdk';
import type { FunctionDeclaration, Tool as GeminiSdkTool } from '@google/genai';
import type OpenAI from 'openai';
import { toStrictJsonSchema } from 'openai/lib/transform';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  createRegistry,
  defineTool,
  type JsonSchema,
  textResult,
  toAnthropicTools,
  toGeminiTools,
  toOpenAITools,
  toolSchema,
  toStrictSchema,
} from '../src/index.js';

const seen: unknown[] = [];
const search = defineTool({
  name: 'search',
  tier: 'read',
  description: 'Search things.',
  parallelSafe: true,
  parameters: z.object({
    query: z.string().min(1).max(200).describe('What to look for'),
    mode: z.enum(['exact', 'fuzzy']).default('exact'),
    limit: z.number().int().min(1).max(500).default(50).describe('Matches shown.'),
    page: z.number().int().optional(),
    pattern: z.string().regex(/^[a-z]+$/).optional(),
    lines: z.array(z.number().int().min(1)).max(20).optional(),
    since: z.string().nullable().optional(),
    options: z
      .array(z.object({ label: z.string().max(200), note: z.string().optional(), weight: z.number().gt(0).optional() }))
      .optional(),
    target: z.union([z.object({ file: z.string() }), z.object({ symbol: z.string(), line: z.number().int() })]).optional(),
    flag: z.literal('on').optional(),
  }),
  execute(params) {
    seen.push(params);
    return textResult('ok');
  },
});

describe('tool schemas for model APIs', () => {
  it("leave out zod's ±(2^53 − 1) integer bounds and keep the real ones", () => {
    const text = JSON.stringify(toolSchema(search).inputSchema);
    expect(text).not.toContain(String(Number.MAX_SAFE_INTEGER));
    expect(text).not.toContain(String(Number.MIN_SAFE_INTEGER));
    expect(toolSchema(search).inputSchema['properties']).toMatchObject({
      limit: { type: 'integer', minimum: 1, maximum: 500 },
      page: { type: 'integer' },
    });
    expect(Object.keys((toolSchema(search).inputSchema['properties'] as Record<string, JsonSchema>)['page'] ?? {})).toEqual([
      'type',
    ]);
  });

  it('are typed as the official SDKs take them (checked by tsc), with strict: false said explicitly to OpenAI', () => {
    const schemas = [toolSchema(search)];
    const anthropic: Anthropic.Tool[] = toAnthropicTools(schemas);
    const anthropicParams: Anthropic.MessageCreateParams['tools'] = toAnthropicTools(schemas);
    const chat: OpenAI.ChatCompletionTool[] = toOpenAITools(schemas);
    const chatParams: OpenAI.ChatCompletionCreateParams['tools'] = toOpenAITools(schemas, 'chat', { strict: true });
    const responses: OpenAI.Responses.FunctionTool[] = toOpenAITools(schemas, 'responses');
    const responsesParams: OpenAI.Responses.ResponseCreateParams['tools'] = toOpenAITools(schemas, 'responses');
    const gemini: GeminiSdkTool[] = toGeminiTools(schemas);
    const declarations: FunctionDeclaration[] = toGeminiTools(schemas)[0]?.functionDeclarations ?? [];

    expect(anthropic[0]?.input_schema.type).toBe('object');
    expect(anthropicParams).toHaveLength(1);
    expect(chat[0]).toMatchObject({ type: 'function', function: { name: 'search', strict: false } });
    expect(chatParams?.[0]).toMatchObject({ function: { strict: true } });
    expect(responses[0]).toEqual({
      type: 'function',
      name: 'search',
      description: 'Search things.',
      parameters: toolSchema(search).inputSchema,
      strict: false,
    });
    expect(responsesParams).toHaveLength(1);
    expect(gemini).toHaveLength(1);
    expect(declarations[0]).toEqual({
      name: 'search',
      description: 'Search things.',
      parametersJsonSchema: toolSchema(search).inputSchema,
    });
  });
});

describe('OpenAI strict mode', () => {
  const strict = toOpenAITools([toolSchema(search)], 'responses', { strict: true })[0]?.parameters as JsonSchema;

  it('makes every property required, the optional ones nullable, and keeps no keyword strict mode refuses', () => {
    const refused = ['default', 'minimum', 'maximum', 'exclusiveMinimum', 'minLength', 'maxLength', 'pattern', 'maxItems'];
    expect(keywordsOf(toolSchema(search).inputSchema)).toEqual(expect.arrayContaining(refused));
    expect(keywordsOf(strict).filter((k) => refused.includes(k))).toEqual([]);
    expect(strict['required']).toEqual(Object.keys(toolSchema(search).inputSchema['properties'] as object));
    expect(strict['properties']).toMatchObject({
      query: { type: 'string', description: 'What to look for. Not empty. At most 200 characters.' },
      mode: { type: ['string', 'null'], enum: ['exact', 'fuzzy', null], description: 'Default: "exact".' },
      limit: { type: ['integer', 'null'], description: 'Matches shown. Default: 50. At least 1. At most 500.' },
      since: { type: ['string', 'null'] },
      flag: { anyOf: [{ type: 'string', const: 'on' }, { type: 'null' }] },
      options: {
        type: ['array', 'null'],
        items: {
          type: 'object',
          required: ['label', 'note', 'weight'],
          additionalProperties: false,
          properties: { note: { type: ['string', 'null'] }, weight: { type: ['number', 'null'], description: 'Greater than 0.' } },
        },
      },
    });
  });

  it("is what OpenAI's own SDK makes of it: its strict transform accepts it and changes nothing", () => {
    expect(toStrictJsonSchema(strict as never)).toEqual(strict);
    // The SDK's transform refuses the plain schema: optional properties that are not nullable.
    expect(() => toStrictJsonSchema(toolSchema(search).inputSchema as never)).toThrow(/optional\(\)/);
  });

  it('calls the model makes in strict mode validate: null means not given, so defaults apply', async () => {
    await using registry = createRegistry({ tools: [search] });
    seen.length = 0;
    const args = Object.fromEntries((strict['required'] as string[]).map((key) => [key, null]));
    const result = await registry.call('search', { ...args, query: 'x', options: [{ label: 'a', note: null, weight: null }] });
    expect(result.isError).toBe(false);
    expect(seen).toEqual([{ query: 'x', mode: 'exact', limit: 50, since: null, options: [{ label: 'a' }] }]);
  });

  it('refuses, naming the place, what strict mode cannot express', () => {
    const open = { type: 'object', properties: { data: {} }, required: [] };
    expect(() => toStrictSchema(open, 'store')).toThrow('store.data accepts a value of any type');
    const map = { type: 'object', properties: { env: { type: 'object', additionalProperties: { type: 'string' } } } };
    expect(() => toStrictSchema(map, 'run')).toThrow('run.env accepts keys it does not name');
    expect(() => toStrictSchema({ type: 'object', allOf: [] }, 'x')).toThrow(/uses `allOf`.*strict: false/);
  });
});

/** Every keyword used anywhere in a schema (property names are not keywords). */
function keywordsOf(schema: unknown): string[] {
  const found = new Set<string>();
  const walk = (node: unknown, isProperties: boolean): void => {
    if (Array.isArray(node)) {
      for (const n of node) walk(n, false);
      return;
    }
    if (typeof node !== 'object' || node === null) return;
    for (const [key, value] of Object.entries(node)) {
      if (!isProperties) found.add(key);
      walk(value, !isProperties && key === 'properties');
    }
  };
  walk(schema, false);
  return [...found];
}
