import { createRegistry } from '@agent-tools/core';
import { describe, expect, it } from 'vitest';
import { astTools } from '../src/index.js';

describe('astTools', () => {
  it('is skipped when its resources are missing', async () => {
    await using registry = createRegistry({ factories: [astTools] });
    expect(registry.factories[0]).toMatchObject({ registered: false, missing: ["cwd", "treeSitter"] });
  });
});
