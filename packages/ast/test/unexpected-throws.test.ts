import { createRegistry, resultText } from '@agent-tools/core';
import { tempDir } from '@agent-tools/test-utils';
import { describe, expect, it } from 'vitest';
import { astTools, createTreeSitterLoader } from '../src/index.js';

describe('a bug inside ast_grep (injected: the loader throws a TypeError)', () => {
  it('reaches the harness onError once, and the model gets "ast_grep failed: …"', async () => {
    using project = tempDir({ 'a.js': 'console.log(1);\n' });
    await using treeSitter = createTreeSitterLoader();
    const bug = new TypeError("Cannot read properties of undefined (reading 'tree')");
    treeSitter.compile = () => Promise.reject(bug);
    const seen: unknown[] = [];
    await using registry = createRegistry({
      resources: { cwd: project.path, treeSitter },
      factories: [astTools],
      onError: (error) => void seen.push(error),
    });
    const result = await registry.call('ast_grep', { pattern: 'console.log($A)', language: 'javascript' });
    expect(result.isError).toBe(true);
    expect(resultText(result)).toBe("ast_grep failed: Cannot read properties of undefined (reading 'tree')");
    expect(seen).toEqual([bug]);
  });
});
