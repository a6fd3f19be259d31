import { join } from 'node:path';
import { createRegistry, resultText } from '@agent-tools/core';
import { tempDir } from '@agent-tools/test-utils';
import { describe, expect, it } from 'vitest';
import { astTools, createTreeSitterLoader } from '../src/index.js';

// Issue 26, item 6: a bug inside a real search worker thread (not the inline path: `inlineBytes: 0`) reaches the
// harness's onError once. The injection is a genuine one: a rule's regex whose backtracking overflows V8's regexp stack
// on a 10 MB string literal throws a RangeError inside the worker's matcher. Since the hostile-files work, the call
// stack running out while matching a file is that file's answer (the model is told it could not be searched, and
// why), and the harness still hears of it once, with the worker's stack (it may be a recursion a file can reach).
describe('a call stack that runs out inside a search worker thread (injected: a regex rule overflows the regexp stack on a huge string)', () => {
  it('reaches onError once with the worker’s stack, and the model is told which file could not be searched and why', { timeout: 60_000 }, async () => {
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
    expect(result.isError).toBe(false);
    const lines = resultText(result).split('\n');
    expect(lines[0]).toBe('Incomplete: 1 file could not be searched (named at the end).');
    expect(lines.at(-1)).toBe('1 file could not be searched: big.js (matching it ran out of call stack: code nested too deeply, or a regex that backtracks too far).');
    expect(seen).toHaveLength(1);
    expect(seen[0]?.context).toEqual({ phase: 'background', factory: '@agent-tools/ast' });
    const error = seen[0]?.error as Error;
    expect(error.message).toBe(`Matching ${join(project.path, 'big.js')} ran out of call stack`);
    // The stack is the worker's: thrown in its matcher, which runs the built module (this test's thread runs src/).
    expect(error.stack).toMatch(/^RangeError: Maximum call stack size exceeded/);
    expect(error.stack).toMatch(/dist\/engine\/file-search\.js/);
    // The worker is still usable: the next search answers.
    const next = await registry.call('ast_grep', { pattern: 'const $X = $Y', language: 'javascript' });
    expect(resultText(next)).toMatch(/^1 match of/);
  });
});
