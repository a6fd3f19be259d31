import { createRegistry } from '@agent-tools/core';
import { describe, expect, it } from 'vitest';
import { vibeTools } from '../src/index.js';

describe('vibeTools', () => {
  it('is skipped when its resources are missing', async () => {
    await using registry = createRegistry({ factories: [vibeTools] });
    expect(registry.factories[0]).toMatchObject({ registered: false, missing: ["workerList"] });
  });
});
