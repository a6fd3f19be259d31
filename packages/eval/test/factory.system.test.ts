import { createRegistry } from '@agent-tools/core';
import { factoryContract, processesMatching, tempDir } from '@agent-tools/test-utils';
import { afterAll, describe, expect, it } from 'vitest';
import { createKernelFactory, evalTools, type KernelFactory } from '../src/index.js';
import { DESCRIPTION } from './helpers.js';

const dir = tempDir({}, 'agent-tools-eval-contract-');
afterAll(() => dir.remove());

factoryContract({
  factory: evalTools,
  resources: () => ({ cwd: dir.path, kernelFactory: createKernelFactory({ cwd: dir.path }) }),
  tools: { eval: 'exec' },
  warmUp: {
    tool: 'eval',
    args: { code: '1 + 1', description: DESCRIPTION },
    // The factory's state directory is on the command line of the server and of every kernel.
    marker: (resources) => (resources['kernelFactory'] as KernelFactory).stateDir,
  },
  harness: new URL('./harness/contract.mjs', import.meta.url),
});

describe('evalTools', () => {
  it('registers eval without starting anything', async () => {
    const kernelFactory = createKernelFactory({ cwd: dir.path });
    await using registry = createRegistry({ resources: { cwd: dir.path, kernelFactory }, factories: [evalTools] });
    expect(registry.tools().map((t) => [t.name, t.tier])).toEqual([['eval', 'exec']]);
    expect(kernelFactory.kernels()).toEqual([]);
    expect(processesMatching(kernelFactory.stateDir)).toEqual([]);
  });
});
