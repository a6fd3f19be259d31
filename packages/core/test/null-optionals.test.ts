import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createRegistry, defineTool, textResult } from '../src/index.js';

const seen: unknown[] = [];
const tool = defineTool({
  name: 'find',
  tier: 'read',
  description: 'Finds things.',
  parallelSafe: true,
  parameters: z.object({
    query: z.string(),
    limit: z.number().int().default(20),
    path: z.string().optional(),
    since: z.string().nullable().optional(),
    filter: z.object({ kind: z.enum(['a', 'b']).optional(), exact: z.boolean() }).optional(),
    edits: z.array(z.object({ line: z.number(), note: z.string().optional() })).default([]),
  }),
  execute(params) {
    seen.push(params);
    return textResult('ok');
  },
});

describe('null for an optional parameter (OpenAI strict mode)', () => {
  it('counts as not given, at every depth, so defaults apply; a nullable parameter keeps its null', async () => {
    await using registry = createRegistry({ tools: [tool] });
    seen.length = 0;
    const args = {
      query: 'x',
      limit: null,
      path: null,
      since: null,
      filter: { kind: null, exact: true },
      edits: [{ line: 1, note: null }, { line: 2, note: 'n' }],
    };
    const result = await registry.call('find', args);
    expect(result.isError).toBe(false);
    expect(seen).toEqual([
      { query: 'x', limit: 20, since: null, filter: { exact: true }, edits: [{ line: 1 }, { line: 2, note: 'n' }] },
    ]);
    expect(args.filter).toEqual({ kind: null, exact: true }); // the caller's object is left alone
  });

  it('is still refused for a required parameter, naming it', async () => {
    await using registry = createRegistry({ tools: [tool] });
    const result = await registry.call('find', { query: null, filter: { exact: null } });
    expect(result.isError).toBe(true);
    const text = result.content.map((p) => (p.type === 'text' ? p.text : '')).join('');
    expect(text).toContain('`query` must be a string, got null.');
    expect(text).toContain('`filter.exact` must be a boolean, got null.');
  });
});
