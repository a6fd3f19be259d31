import { createRegistry } from '@agent-tools/core';
import { describe, expect, it } from 'vitest';
import { lspTools } from '../src/index.js';

describe('lspTools', () => {
  it('is skipped when its resources are missing', async () => {
    await using registry = createRegistry({ factories: [lspTools] });
    expect(registry.factories[0]).toMatchObject({ registered: false, missing: ["cwd", "lspSupervisor"] });
  });
});
