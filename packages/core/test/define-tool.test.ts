import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { z as z3 } from 'zod3';
import { defineTool, textResult } from '../src/index.js';

const base = {
  name: 'ok_name',
  tier: 'read' as const,
  description: 'Does a thing.',
  parallelSafe: true,
  parameters: z.object({}),
  execute: () => textResult('x'),
};

describe('defineTool', () => {
  it('accepts a well-formed definition and freezes it', () => {
    const tool = defineTool(base);
    expect(tool.name).toBe('ok_name');
    expect(Object.isFrozen(tool)).toBe(true);
  });

  it('says a zod 3 schema needs zod 4, instead of crashing on it', () => {
    const parameters = z3.object({ file: z3.string() });
    expect(() => defineTool({ ...base, parameters: parameters as never })).toThrow(
      '[agent-tools/core] Tool "ok_name" needs a zod 4 schema for its parameters, and got a zod 3 schema. Install zod 4 in your project (npm i zod@^4) and build the schema with it.',
    );
    expect(() => defineTool({ ...base, parameters: undefined as never })).toThrow(/needs a zod 4 schema .* got nothing/);
  });

  it('refuses names that model APIs reject', () => {
    expect(() => defineTool({ ...base, name: 'has space' })).toThrow(/must match/);
    expect(() => defineTool({ ...base, name: 'x'.repeat(65) })).toThrow(/must match/);
  });

  it('refuses an unknown tier, an empty description, non-object parameters and a bad timeout', () => {
    expect(() => defineTool({ ...base, tier: 'admin' as never })).toThrow(/unknown tier "admin"/);
    expect(() => defineTool({ ...base, description: '  ' })).toThrow(/needs a description/);
    expect(() => defineTool({ ...base, parameters: z.string() as never })).toThrow(/must be a z.object/);
    expect(() => defineTool({ ...base, timeoutMs: 0 })).toThrow(/timeoutMs must be positive/);
    expect(defineTool({ ...base, timeoutMs: Number.POSITIVE_INFINITY }).timeoutMs).toBe(Number.POSITIVE_INFINITY);
  });
});
