import { createRegistry, resultText, toolSchema } from '@agent-tools/core';
import { describe, expect, it } from 'vitest';
import { createKernelFactory, evalParameters } from '../src/index.js';
import { cellLabel, evalTool, wordCount } from '../src/tools/eval.js';

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

  it('takes the description as a label, never as a reason not to run: a short one as given, a long one cut', () => {
    expect(cellLabel('  plot  it ')).toBe('plot it');
    expect(cellLabel('Load orders and count rows per region')).toBe('Load orders and count rows per region');
    expect(cellLabel('one two three four five six seven eight nine ten eleven twelve')).toBe('one two three four five six seven eight nine ten…');
    expect(cellLabel('a — b c d e f g h i j k')).toBe('a — b c d e f g h i j…');
  });

  it('still requires a description', async () => {
    await using registry = createRegistry({ resources: { kernelFactory: factory }, tools: [tool], approve: () => true });
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
