import { createRegistry } from '@agent-tools/core';
import { describe, expect, it } from 'vitest';
import { askTools } from '../src/index.js';

describe('askTools', () => {
  it('is skipped when its resources are missing', async () => {
    await using registry = createRegistry({ factories: [askTools] });
    expect(registry.factories[0]).toMatchObject({ registered: false, missing: ["questionPort", "targetSpace"] });
  });
});
