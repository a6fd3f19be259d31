import { createRegistry, resultText } from '@agent-tools/core';
import { tempDir } from '@agent-tools/test-utils';
import { describe, expect, it } from 'vitest';
import { createDebugSupervisor, debugTools } from '../src/index.js';

describe('a bug inside the debug tool (injected: the supervisor throws a TypeError)', () => {
  it('reaches the harness onError once, and the model gets "debug failed: …"', async () => {
    using project = tempDir({});
    const supervisor = createDebugSupervisor();
    const bug = new TypeError("Cannot read properties of undefined (reading 'session')");
    supervisor.conversation = () => {
      throw bug;
    };
    const seen: unknown[] = [];
    await using registry = createRegistry({
      resources: { cwd: project.path, conversationId: 'c1', debugSupervisor: supervisor },
      factories: [debugTools],
      approve: async () => true,
      onError: (error) => void seen.push(error),
    });
    const result = await registry.call('debug', { action: 'status' });
    expect(result.isError).toBe(true);
    expect(resultText(result)).toBe("debug failed: Cannot read properties of undefined (reading 'session')");
    expect(seen).toEqual([bug]);
  });
});
