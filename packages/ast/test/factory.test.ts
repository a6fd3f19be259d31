import { readdirSync } from 'node:fs';
import { createRegistry, toolSchema } from '@agent-tools/core';
import { factoryContract, tempDir } from '@agent-tools/test-utils';
import { afterAll, describe, expect, it } from 'vitest';
import { astTools, createTreeSitterLoader } from '../src/index.js';

const sample = tempDir({ 'a.ts': 'foo(1);\n' });
afterAll(() => sample.remove());

factoryContract({
  factory: astTools,
  resources: () => ({ cwd: sample.path, treeSitter: createTreeSitterLoader() }),
  tools: { ast_grep: 'read', ast_tree: 'read', ast_edit: 'write', resolve: 'write' },
  call: { tool: 'ast_grep', args: { pattern: 'console.log($$$A)', language: 'typescript' } },
});

describe('astTools', () => {
  it('is skipped when its resources are missing', async () => {
    await using registry = createRegistry({ factories: [astTools] });
    expect(registry.factories[0]).toMatchObject({ registered: false, missing: ['cwd', 'treeSitter'] });
  });

  it('publishes the JSON Schemas the model sees', async () => {
    await using registry = createRegistry({
      resources: { cwd: sample.path, treeSitter: createTreeSitterLoader() },
      factories: [astTools],
    });
    for (const tool of registry.tools()) {
      expect(toolSchema(tool).inputSchema).toMatchSnapshot(tool.name);
    }
  });

  it('creating the loader loads nothing; disposing the registry stops the search workers it started', async () => {
    const threads = (): number => readdirSync('/proc/self/task').length;
    // Warm libuv's thread pool so its threads are in the baseline.
    await Promise.all(Array.from({ length: 8 }, () => import('node:fs/promises').then((fs) => fs.stat(sample.path))));
    const baseline = threads();
    const loader = createTreeSitterLoader({ workers: 2, inlineBytes: 0 });
    expect(threads()).toBe(baseline);
    const registry = createRegistry({ resources: { cwd: sample.path, treeSitter: loader }, factories: [astTools] });
    const result = await registry.call('ast_grep', { pattern: 'foo($A)', language: 'typescript' });
    expect(result.isError).toBe(false);
    expect(threads()).toBeGreaterThan(baseline);
    await registry.dispose();
    const deadline = Date.now() + 10_000;
    while (threads() > baseline && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    expect(threads()).toBeLessThanOrEqual(baseline);
    await expect(loader.search({} as never, [])).rejects.toThrow(/disposed/);
  });
});
