import { createRegistry } from '@agent-tools/core';
import { describe, expect, it } from 'vitest';
import { evalTools } from '../src/index.js';

describe('evalTools', () => {
  it('is skipped when its resources are missing', async () => {
    await using registry = createRegistry({ factories: [evalTools] });
    expect(registry.factories[0]).toMatchObject({ registered: false, missing: ["kernelFactory"] });
  });
});
