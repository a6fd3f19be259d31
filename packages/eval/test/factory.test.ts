import { approveAll, createRegistry, resultText } from '@agent-tools/core';
import { processesMatching, tempDir, waitForNoProcesses } from '@agent-tools/test-utils';
import { afterAll, describe, expect, it } from 'vitest';
import { createKernelFactory, evalTools } from '../src/index.js';
import { DESCRIPTION } from './helpers.js';

// The checks of @agent-tools/test-utils' factoryContract, written out here: its plan-surface check compares
// against JSON.stringify(content), which escapes the quotes of `Unknown tool "eval"` and so fails for every write
// or exec tool. Switch back to factoryContract once that is fixed.
const dir = tempDir({}, 'agent-tools-eval-contract-');
afterAll(() => dir.remove());

function resources() {
  return { cwd: dir.path, kernelFactory: createKernelFactory({ cwd: dir.path }) };
}

describe('@agent-tools/eval factory contract', () => {
  it('declares what it needs', () => {
    expect(evalTools.needs).toEqual(['kernelFactory']);
  });

  it('registers nothing without "kernelFactory"', async () => {
    await using registry = createRegistry({ resources: { ...resources(), kernelFactory: undefined }, factories: [evalTools] });
    expect(registry.tools().map((t) => t.name)).toEqual([]);
    expect(registry.factories[0]).toMatchObject({ registered: false, missing: ['kernelFactory'] });
  });

  it('registers eval as an exec tool, starting nothing', async () => {
    const res = resources();
    await using registry = createRegistry({ resources: res, factories: [evalTools] });
    expect(registry.tools().map((t) => [t.name, t.tier])).toEqual([['eval', 'exec']]);
    expect(res.kernelFactory.kernels()).toEqual([]);
    expect(processesMatching(res.kernelFactory.stateDir)).toEqual([]);
  });

  it('is absent from the plan and subagent surfaces, where a call is an unknown tool', async () => {
    await using registry = createRegistry({ resources: resources(), factories: [evalTools], approve: approveAll });
    for (const surface of ['plan', 'subagent']) {
      expect(registry.tools(surface)).toEqual([]);
      const result = await registry.call('eval', { code: '1', description: DESCRIPTION }, { surface });
      expect(result.isError).toBe(true);
      expect(resultText(result)).toContain('Unknown tool "eval"');
    }
  });

  it('leaves no process behind after dispose', async () => {
    const res = resources();
    const registry = createRegistry({ resources: res, factories: [evalTools], approve: approveAll });
    const warm = await registry.call('eval', { code: '1 + 1', description: DESCRIPTION });
    expect(resultText(warm)).toMatch(/Out\[1\]: 2$/);
    expect(processesMatching(res.kernelFactory.stateDir).length).toBeGreaterThanOrEqual(2);
    await registry.dispose();
    expect(await waitForNoProcesses(res.kernelFactory.stateDir, 10_000)).toEqual([]);
  });
});
