import { createRegistry, resultText } from '@agent-tools/core';
import { describe, expect, it } from 'vitest';
import { createAskTools, memoryPort, permissionApproval } from '../src/index.js';
import { target } from './helpers.js';

describe('a bug in the question port (injected: its ask throws a TypeError)', () => {
  it('reaches the harness onError once, and the model still gets the failed question as an answer', async () => {
    const port = memoryPort();
    const bug = new TypeError("Cannot read properties of undefined (reading 'render')");
    port.ask = () => {
      throw bug;
    };
    const seen: unknown[] = [];
    await using registry = createRegistry({
      resources: { questionPort: port, targetSpace: target, conversationId: 'c1' },
      factories: [createAskTools()],
      onError: (error) => void seen.push(error),
    });
    const result = await registry.call('ask_user', { question: 'Proceed?', options: [{ label: 'Yes' }, { label: 'No' }] });
    expect(result.isError).toBe(true);
    expect(resultText(result)).toContain("Cannot read properties of undefined (reading 'render')");
    expect(seen).toEqual([bug]);
  });
});

describe('a bug in the question port asked for a permission (injected: its ask throws a TypeError)', () => {
  it("reaches the onPortError the harness wires to its onError, once, and the call is refused", async () => {
    const port = memoryPort();
    const bug = new TypeError("Cannot read properties of undefined (reading 'render')");
    port.ask = () => {
      throw bug;
    };
    const seen: unknown[] = [];
    const approve = permissionApproval({ port, target, onPortError: (error) => void seen.push(error) });
    const decision = await approve({ tool: 'write', tier: 'write', args: {}, surface: { name: 'default', tiers: ['read', 'write', 'exec'] }, conversationId: 'c1', bridged: false, signal: new AbortController().signal });
    expect(decision).toEqual({ approved: false, reason: expect.stringContaining('could not be shown') });
    expect(seen).toEqual([bug]);
  });
});
