import { AgentToolsError } from '@agent-tools/core';
import { tempDir } from '@agent-tools/test-utils';
import { describe, expect, it } from 'vitest';
import { evalRun } from './helpers.js';

class EnvironmentError extends AgentToolsError<'unreachable'> {
  constructor(detail: string, hint: string) {
    super('sandbox', 'unreachable', detail, { hint });
  }
}

describe('a kernel that cannot be started (no server is started)', () => {
  it("says why in the error's own sentence, hint included, without a package prefix", async () => {
    await using dir = tempDir({});
    const run = evalRun(dir.path, {
      factory: {
        environment: () => {
          throw new EnvironmentError('The sandbox is asleep.', 'Wake it with the sandbox tool.');
        },
      },
    });
    try {
      const answer = await run.cell('1 + 1');
      expect(answer.result.isError).toBe(true);
      expect(answer.text).toBe('The python kernel could not be started, so nothing was run: The sandbox is asleep. Wake it with the sandbox tool.');
    } finally {
      await run.registry.dispose();
    }
  });
});
