import { approveAll, createRegistry, resultText } from '@agent-tools/core';
import { describe, expect, it } from 'vitest';
import { createKernelFactory, evalTools } from '../src/index.js';
import { DESCRIPTION } from './helpers.js';

// Issue 26, item 6: a bug outside any call reaches the harness's onError once. The bug source is a real ipykernel
// sending, from a cell, a message services' validation refuses: it threw that out of the socket's message handler,
// which ended the harness's process (and the cell waited for ever).
/** Sends one raw iopub message from inside a cell, past IPython's own checks, then prints. */
function sending(type: string, content: string): string {
  return `k = get_ipython().kernel
parent = k.get_parent("shell") if hasattr(k, "get_parent") else k._parent_header
k.session.send(k.iopub_socket, "${type}", ${content}, parent=parent)
print("after the odd message")
`;
}

async function run(code: string) {
  const kernelFactory = createKernelFactory();
  const seen: { error: unknown; context: unknown }[] = [];
  const registry = createRegistry({
    resources: { kernelFactory, conversationId: 'c1' },
    factories: [evalTools],
    approve: approveAll,
    onError: (error, context) => void seen.push({ error, context }),
  });
  try {
    const result = await registry.call('eval', { code, description: DESCRIPTION });
    // The first cell's answer, and a second cell in the same kernel: it lives on.
    const next = await registry.call('eval', { code: 'print(6 * 7)', description: DESCRIPTION });
    return { result, next, seen };
  } finally {
    await registry.dispose();
  }
}

describe('a kernel message outside the protocol (injected: a stream without text)', () => {
  it('reaches onError once as phase background instead of ending the process, and the cell answers', { timeout: 120_000 }, async () => {
    const { result, next, seen } = await run(sending('stream', '{"name": "stdout", "text": None}'));
    expect(result.isError).toBe(false);
    expect(resultText(result)).toContain('after the odd message');
    expect(resultText(next)).toContain('42');
    expect(seen).toHaveLength(1);
    expect(String(seen[0]?.error)).toMatch(/Kernel message validation error: Property 'text' is not of type 'string'/);
    expect(seen[0]?.context).toEqual({ phase: 'background', factory: '@agent-tools/eval' });
  });
});
