import {
  approveAll,
  createRegistry,
  defineTool,
  type JsonSchema,
  resultText,
  textResult,
  toOpenAITools,
  toolSchema,
} from '@agent-tools/core';
import { checkStrictSchema, tempDir } from '@agent-tools/test-utils';
import { toStrictJsonSchema } from 'openai/lib/transform';
import { describe, expect, it } from 'vitest';
import { assemble } from '../src/assemble.js';

const PACKAGE_TOOLS = ['lsp', 'lsp_rename', 'ast_grep', 'ast_edit', 'resolve', 'debug', 'eval', 'ask_user'];
const VIBE_TOOLS = ['vibe_spawn', 'vibe_send', 'vibe_wait', 'vibe_kill', 'vibe_list'];

/** Every tool of every package (vibe mode on), as the harness assembles them; no process starts. */
async function everyTool() {
  const before = process.env['AGENT_TOOLS_VIBE'];
  process.env['AGENT_TOOLS_VIBE'] = '1';
  try {
    using dir = tempDir({ 'a.ts': 'export const a = 1;\n' });
    const registry = await assemble({ cwd: dir.path, approve: () => false });
    const tools = registry.tools();
    await registry.dispose();
    return tools;
  } finally {
    if (before === undefined) delete process.env['AGENT_TOOLS_VIBE'];
    else process.env['AGENT_TOOLS_VIBE'] = before;
  }
}

/**
 * Arguments a tool needs though its schema cannot mark them required, because one of two forms must be given
 * (ask_user: `question`, or `questions` for several on one card).
 */
const ONE_OF: Readonly<Record<string, Record<string, unknown>>> = { ask_user: { question: 'Which one?' } };

/** The least arguments a strict-mode model could send: a plain value for each required one, null for the rest. */
function strictCall(schema: JsonSchema, plain: JsonSchema): Record<string, unknown> {
  const properties = schema['properties'] as Record<string, JsonSchema>;
  const required = new Set((plain['required'] as string[] | undefined) ?? []);
  const plainProperties = plain['properties'] as Record<string, JsonSchema>;
  return Object.fromEntries(
    Object.entries(properties).map(([name, property]) => [
      name,
      required.has(name) ? sample(property, plainProperties[name] ?? {}) : null,
    ]),
  );
}

function sample(schema: JsonSchema, plain: JsonSchema): unknown {
  if (Array.isArray(schema['enum'])) return schema['enum'][0];
  switch (schema['type']) {
    case 'string':
      return 'one two three four five six';
    case 'integer':
    case 'number':
      return typeof plain['minimum'] === 'number' ? plain['minimum'] : 1;
    case 'boolean':
      return false;
    case 'array':
      return [];
    case 'object':
      return strictCall(schema, plain);
    default:
      return null;
  }
}

describe('every tool of every package in OpenAI strict mode', async () => {
  const tools = await everyTool();

  it('covers the tools of every package', () => {
    expect(tools.map((t) => t.name)).toEqual(expect.arrayContaining([...PACKAGE_TOOLS, ...VIBE_TOOLS]));
  });

  it.each(tools.map((t) => [t.name, t] as const))('%s: follows the rules, and the OpenAI SDK changes nothing', (_name, tool) => {
    const [converted] = toOpenAITools([toolSchema(tool)], 'responses', { strict: true });
    const strict = converted?.parameters as JsonSchema;
    expect(converted?.strict).toBe(true);
    expect(checkStrictSchema(strict)).toEqual([]);
    expect(toStrictJsonSchema(strict as never)).toEqual(strict);
  });

  it('would mostly be refused without the conversion (the checker bites)', () => {
    const refused = tools.filter((t) => checkStrictSchema(toolSchema(t).inputSchema).length > 0).map((t) => t.name);
    expect(refused.length).toBeGreaterThanOrEqual(PACKAGE_TOOLS.length);
  });

  it.each(tools.map((t) => [t.name, t] as const))('%s: a strict-mode call with null for every optional argument validates', async (name, tool) => {
    const probe = defineTool({ ...tool, execute: () => textResult('validated') });
    await using registry = createRegistry({ tools: [probe], approve: approveAll });
    const plain = toolSchema(tool).inputSchema;
    const [converted] = toOpenAITools([toolSchema(tool)], 'chat', { strict: true });
    const args = { ...strictCall(converted?.function.parameters as JsonSchema, plain), ...ONE_OF[name] };
    const result = await registry.call(name, args);
    expect(resultText(result)).toBe('validated');
  });
});
