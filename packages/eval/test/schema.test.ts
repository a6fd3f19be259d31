import { createRegistry, resultText, toolSchema } from '@agent-tools/core';
import { describe, expect, it } from 'vitest';
import { createKernelFactory, evalParameters, evalTool } from '../src/index.js';
import { wordCount } from '../src/tools/eval.js';

describe('eval tool definition', () => {
  const factory = createKernelFactory();
  const tool = evalTool(factory);

  it('has a stable JSON Schema', () => {
    expect(toolSchema(tool).inputSchema).toMatchSnapshot();
  });

  it('is an exec-tier tool that runs one call at a time with its own budget', () => {
    expect({ tier: tool.tier, parallelSafe: tool.parallelSafe, timeoutMs: tool.timeoutMs }).toEqual({
      tier: 'exec',
      parallelSafe: false,
      timeoutMs: Number.POSITIVE_INFINITY,
    });
  });

  it('counts words the way people do', () => {
    expect(wordCount('  load the CSV,  then   plot it ')).toBe(6);
    expect(wordCount('fit — model')).toBe(2);
  });

  it('requires a description of 5 to 10 words, with a clear error', async () => {
    await using registry = createRegistry({ resources: { kernelFactory: factory }, tools: [tool], approve: () => true });
    const short = await registry.call('eval', { code: '1', description: 'run it' });
    expect(short.isError).toBe(true);
    expect(resultText(short)).toContain('`description`: must be 5 to 10 words saying what the cell does');
    const long = await registry.call('eval', { code: '1', description: 'one two three four five six seven eight nine ten eleven' });
    expect(resultText(long)).toContain('must be 5 to 10 words');
    const missing = await registry.call('eval', { code: '1' });
    expect(resultText(missing)).toContain('`description` is required');
  });

  it('defaults to Python without reset', () => {
    expect(evalParameters.parse({ code: 'x', description: 'a b c d e' })).toEqual({
      code: 'x',
      description: 'a b c d e',
      language: 'python',
      reset: false,
    });
  });

  it('refuses an empty cell without starting anything', async () => {
    await using registry = createRegistry({ resources: { kernelFactory: factory }, tools: [tool], approve: () => true });
    const result = await registry.call('eval', { code: '  ', description: 'runs nothing at all here really' });
    expect(resultText(result)).toContain('`code` is empty');
    expect(factory.kernels()).toEqual([]);
  });

  it('refuses an unsupported magic before starting a kernel', async () => {
    await using registry = createRegistry({ resources: { kernelFactory: factory }, tools: [tool], approve: () => true });
    const result = await registry.call('eval', { code: '%load_ext autoreload', description: 'load the autoreload extension now' });
    expect(result.isError).toBe(true);
    expect(resultText(result)).toMatch(/`%load_ext` is not supported.*Nothing was run\.$/s);
    expect(factory.kernels()).toEqual([]);
  });
});
