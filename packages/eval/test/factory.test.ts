import { createRegistry } from '@agent-tools/core';
import { factoryContract, tempDir } from '@agent-tools/test-utils';
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
    marker: (resources) => (resources['kernelFactory'] as KernelFactory).stateDir,
  },
});

describe('evalTools', () => {
  it('is skipped when its resources are missing', async () => {
    await using registry = createRegistry({ factories: [evalTools] });
    expect(registry.factories[0]).toMatchObject({ registered: false, missing: ['kernelFactory'] });
  });

  it('creates the kernel factory without starting anything', async () => {
    const factory = createKernelFactory({ cwd: dir.path });
    expect(factory.kernels()).toEqual([]);
    await factory.dispose();
  });
});
