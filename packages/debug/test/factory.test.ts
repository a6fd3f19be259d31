import { createRegistry } from '@agent-tools/core';
import { describe, expect, it } from 'vitest';
import { debugTools } from '../src/index.js';

describe('debugTools', () => {
  it('is skipped when its resources are missing', async () => {
    await using registry = createRegistry({ factories: [debugTools] });
    expect(registry.factories[0]).toMatchObject({ registered: false, missing: ["cwd", "conversationId", "debugSupervisor"] });
  });
});
