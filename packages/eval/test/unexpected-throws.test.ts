import { createRegistry, resultText } from '@agent-tools/core';
import { describe, expect, it } from 'vitest';
import { createKernelFactory, evalTools } from '../src/index.js';

describe('a bug inside eval (injected: the kernel factory throws a TypeError; no kernel starts)', () => {
  it('reaches the harness onError once, and the model still learns that nothing was run', async () => {
    const kernelFactory = createKernelFactory();
    const bug = new TypeError("Cannot read properties of undefined (reading 'settings')");
    kernelFactory.acquire = () => Promise.reject(bug);
    const seen: unknown[] = [];
    await using registry = createRegistry({
      resources: { kernelFactory, conversationId: 'c1' },
      factories: [evalTools],
      approve: async () => true,
      onError: (error) => void seen.push(error),
    });
    const result = await registry.call('eval', { code: '1 + 1', description: 'adds' });
    expect(result.isError).toBe(true);
    expect(resultText(result)).toMatch(/^The python kernel could not be started, so nothing was run: Cannot read properties of undefined/);
    expect(seen).toEqual([bug]);
  });
});
