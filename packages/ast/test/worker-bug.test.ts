import { createRegistry, resultText } from '@agent-tools/core';
import { tempDir } from '@agent-tools/test-utils';
import { describe, expect, it } from 'vitest';
import { astTools, createTreeSitterLoader } from '../src/index.js';

// Issue 26, item 6: a bug inside a real search worker thread (not the inline path: `inlineBytes: 0`) reaches the
// harness's onError once. The bug is a genuine one: a rule's regex whose backtracking overflows V8's regexp stack on
// a 10 MB string literal throws a RangeError inside the worker's matcher, which nothing there expects.
describe('a bug inside a search worker thread (injected: a regex rule overflows the regexp stack on a huge string)', () => {
  it('reaches onError once with the worker’s stack, and the model gets "ast_grep failed: …"', { timeout: 60_000 }, async () => {
    using project = tempDir({ 'big.js': `const s = "${'ab'.repeat(5_000_000)}";\n` });
    await using treeSitter = createTreeSitterLoader({ inlineBytes: 0, workers: 1, maxFileBytes: 32 * 1024 * 1024 });
    const seen: { error: unknown; context: unknown }[] = [];
    await using registry = createRegistry({
      resources: { cwd: project.path, treeSitter },
      factories: [astTools],
      onError: (error, context) => void seen.push({ error, context }),
    });
    const rule = JSON.stringify({ kind: 'string_fragment', regex: '(?:a|b)*c' });
    const result = await registry.call('ast_grep', { rule, language: 'javascript' });
    expect(result.isError).toBe(true);
    expect(resultText(result)).toBe('ast_grep failed: A search worker failed: Maximum call stack size exceeded');
    expect(seen).toHaveLength(1);
    expect(seen[0]?.context).toEqual({ tool: 'ast_grep', phase: 'call' });
    const error = seen[0]?.error as Error;
    expect(error.message).toBe('A search worker failed: Maximum call stack size exceeded');
    // The stack is the worker's: thrown in its matcher, which runs the built module (this test's thread runs src/).
    expect(error.stack).toMatch(/^RangeError: Maximum call stack size exceeded/);
    expect(error.stack).toMatch(/dist\/engine\/file-search\.js/);
    // The worker is still usable: the next search answers.
    const next = await registry.call('ast_grep', { pattern: 'const $X = $Y', language: 'javascript' });
    expect(resultText(next)).toMatch(/^1 match of/);
  });
});
