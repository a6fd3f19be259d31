import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createRegistry, defineTool, resultText, textResult } from '../src/index.js';

const lookup = defineTool({
  name: 'lookup',
  tier: 'read',
  description: 'Look a symbol up.',
  parallelSafe: true,
  parameters: z.object({
    file: z.string(),
    line: z.number().int().min(1),
    action: z.enum(['hover', 'definition']),
    options: z.object({ depth: z.number() }).optional(),
  }),
  execute: (p) => textResult(JSON.stringify(p)),
});

async function error(args: unknown): Promise<string> {
  await using registry = createRegistry({ tools: [lookup] });
  const result = await registry.call('lookup', args);
  expect(result.isError).toBe(true);
  return resultText(result);
}

describe('argument validation', () => {
  it('names every bad field, says what it expected, and how to go on', async () => {
    const text = await error({ file: 'a.ts', line: 'twelve', action: 'hover' });
    expect(text).toBe(
      ['Invalid arguments for lookup:', '- `line` must be a number, got the string "twelve".', 'Fix these arguments and call lookup again.'].join('\n'),
    );
  });

  it('takes a numeric string for a number, at any depth, and leaves other strings alone', async () => {
    await using registry = createRegistry({ tools: [lookup] });
    const result = await registry.call('lookup', { file: '12', line: ' 59 ', action: 'hover', options: { depth: '2.5' } });
    expect(result.isError, resultText(result)).toBe(false);
    expect(JSON.parse(resultText(result))).toEqual({ file: '12', line: 59, action: 'hover', options: { depth: 2.5 } });
  });

  it('words bounds as a person would, with the convention of the field', async () => {
    expect(await error({ file: 'a.ts', line: 0, action: 'hover' })).toContain('- `line` must be 1 or more (lines are 1-based), got number 0.');
    expect(await error({ file: 'a.ts', line: 1.5, action: 'hover' })).toContain('- `line` must be a whole number, got number 1.5.');
    const bounded = defineTool({
      name: 'bounded',
      tier: 'read',
      description: 'Bounds.',
      parallelSafe: true,
      parameters: z.object({ text: z.string().min(1), items: z.array(z.string()).max(2), limit: z.number().max(500) }),
      execute: () => textResult('ok'),
    });
    await using registry = createRegistry({ tools: [bounded] });
    const text = resultText(await registry.call('bounded', { text: '', items: ['a', 'b', 'c'], limit: 501 }));
    expect(text).toContain('- `text` must not be empty, got the string "".');
    expect(text).toContain('- `items` must have at most 2 items, got an array.');
    expect(text).toContain('- `limit` must be 500 or less, got number 501.');
    // A schema's own message wins over the general wording.
    const own = defineTool({
      name: 'own',
      tier: 'read',
      description: 'Own message.',
      parallelSafe: true,
      parameters: z.object({ brief: z.string().min(1, 'the brief is empty; describe the task') }),
      execute: () => textResult('ok'),
    });
    await using second = createRegistry({ tools: [own] });
    expect(resultText(await second.call('own', { brief: '' }))).toContain('- `brief`: the brief is empty; describe the task (got the string "").');
  });

  it('says which fields are missing', async () => {
    const text = await error({ file: 'a.ts' });
    expect(text).toContain('- `line` is required (expected number).');
    expect(text).toContain('- `action` is required');
  });

  it('lists the allowed values of an enum', async () => {
    expect(await error({ file: 'a.ts', line: 1, action: 'rename' })).toContain(
      '- `action` must be one of "hover", "definition", got the string "rename".',
    );
  });

  it('gives the path of a nested field', async () => {
    expect(await error({ file: 'a.ts', line: 1, action: 'hover', options: { depth: 'deep' } })).toContain('`options.depth` must be a number');
  });

  it('refuses unknown arguments by name instead of dropping them', async () => {
    const text = await error({ file: 'a.ts', line: 1, column: 4, action: 'hover' });
    expect(text).toContain('- `column` is not an argument of lookup; remove it (accepted: file, line, action, options).');
  });

  it('refuses arguments that are not an object', async () => {
    expect(await error([1, 2])).toBe(
      'Arguments for lookup must be a JSON object (got an array). Call lookup again with an object of named arguments.',
    );
  });

  it('accepts an object encoded as a JSON string, and no arguments for a tool without required ones', async () => {
    await using registry = createRegistry({ tools: [lookup] });
    const result = await registry.call('lookup', '{"file":"a.ts","line":3,"action":"hover"}');
    expect(result.isError).toBe(false);
    expect(JSON.parse(resultText(result))).toEqual({ file: 'a.ts', line: 3, action: 'hover' });
  });

  it('never runs the tool with invalid arguments', async () => {
    let ran = false;
    const tool = defineTool({
      name: 'guarded',
      tier: 'read',
      description: 'x',
      parallelSafe: true,
      parameters: z.object({ n: z.number() }),
      execute: () => {
        ran = true;
        return textResult('ran');
      },
    });
    await using registry = createRegistry({ tools: [tool] });
    await registry.call('guarded', { n: 'one' });
    expect(ran).toBe(false);
  });
});
