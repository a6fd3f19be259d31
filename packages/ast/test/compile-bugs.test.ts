import { createRegistry, resultText } from '@agent-tools/core';
import { tempDir } from '@agent-tools/test-utils';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { astTools, createTreeSitterLoader } from '../src/index.js';
import type { LanguageSpec } from '../src/languages.js';

// Issue 26, item 6: where the compiler only asks whether a fragment can be read one way (as ast-grep reads it, as a
// probed reading, inside a suggested construct), a failure that is not the compiler's "cannot read it" (an AstError
// unparseable_pattern / invalid_pattern, or the call stack running out) is a bug: it reaches onError once and the
// call says it failed, instead of reading as "not parseable". Nothing a harness sets reaches the compiler, so the bug
// is injected with vi.mock into preprocessPattern (the first step of every reading), for the call `inject.when` picks.
const inject = vi.hoisted(() => ({
  when: undefined as ((pattern: string, spec: LanguageSpec) => boolean) | undefined,
  bug: new TypeError("injected: Cannot read properties of undefined (reading 'expando')"),
}));
vi.mock('../src/pattern/metavars.js', async (importOriginal) => {
  const real = await importOriginal<typeof import('../src/pattern/metavars.js')>();
  return {
    ...real,
    preprocessPattern: (pattern: string, spec: LanguageSpec) => {
      if (inject.when?.(pattern, spec)) throw inject.bug;
      return real.preprocessPattern(pattern, spec);
    },
  };
});

afterEach(() => {
  inject.when = undefined;
});

/** Whether a call reads the fragment as ast-grep does (the compiler gives that reading its own spec). */
const asAstGrep = (spec: LanguageSpec): boolean => Object.hasOwn(spec, 'quoteMetavariables') && spec.quoteMetavariables === false && !spec.probing;

/** Picks the n-th call (1-based) that `test` accepts. */
function nth(n: number, test: (pattern: string, spec: LanguageSpec) => boolean) {
  let seen = 0;
  return (pattern: string, spec: LanguageSpec) => test(pattern, spec) && ++seen === n;
}

async function call(tool: 'ast_grep' | 'ast_tree', params: Record<string, unknown>, files: Record<string, string> = {}) {
  using project = tempDir({ 'a.js': 'console.log(1);\n', 'a.c': 'int n = sizeof(int);\n', 'a.py': 'x = 1\n', ...files });
  await using treeSitter = createTreeSitterLoader({ workers: 0 });
  const seen: { error: unknown; context: unknown }[] = [];
  await using registry = createRegistry({
    resources: { cwd: project.path, treeSitter },
    factories: [astTools],
    onError: (error, context) => void seen.push({ error, context }),
  });
  const result = await registry.call(tool, params);
  return { text: resultText(result), isError: result.isError, seen };
}

const failed = (tool: string) => `${tool} failed: injected: Cannot read properties of undefined (reading 'expando')`;

describe('a bug in the pattern compiler where it asks whether a reading exists (injected with vi.mock)', () => {
  it('the fragment read alone, as ast-grep reads it (compile.ts, first reading)', async () => {
    inject.when = nth(1, (_, spec) => asAstGrep(spec));
    const r = await call('ast_grep', { pattern: 'console.log($A)', language: 'javascript' });
    expect(r.text).toBe(failed('ast_grep'));
    expect(r.seen).toEqual([{ error: inject.bug, context: { phase: 'call', tool: 'ast_grep' } }]);
  });

  it('the fragment read alone stepping over an error, after the ladder failed (compile.ts, last reading)', async () => {
    inject.when = nth(2, (_, spec) => asAstGrep(spec));
    const r = await call('ast_grep', { pattern: ')(', language: 'javascript' });
    expect(r.text).toBe(failed('ast_grep'));
    expect(r.seen).toEqual([{ error: inject.bug, context: { phase: 'call', tool: 'ast_grep' } }]);
  });

  it('a probed reading of a metavariable (readings.ts)', async () => {
    inject.when = (_, spec) => spec.probing !== undefined;
    const r = await call('ast_grep', { pattern: 'sizeof($T)', language: 'c' });
    expect(r.text).toBe(failed('ast_grep'));
    expect(r.seen).toEqual([{ error: inject.bug, context: { phase: 'call', tool: 'ast_grep' } }]);
  });

  it('the construct suggested for a lone clause (compile.ts, enclosing)', async () => {
    inject.when = (pattern) => pattern.startsWith('try');
    const r = await call('ast_grep', { pattern: 'except $E:', language: 'python' });
    expect(r.text).toBe(failed('ast_grep'));
    expect(r.seen).toEqual([{ error: inject.bug, context: { phase: 'call', tool: 'ast_grep' } }]);
  });

  it('ast_tree’s reading as ast-grep’s (ast-tree.ts)', async () => {
    inject.when = nth(2, (_, spec) => asAstGrep(spec));
    const r = await call('ast_tree', { pattern: 'console.log($A)', language: 'javascript' });
    expect(r.text).toBe(failed('ast_tree'));
    expect(r.seen).toEqual([{ error: inject.bug, context: { phase: 'call', tool: 'ast_tree' } }]);
  });
});

describe('without a bug, the same paths answer as before and tell nothing', () => {
  it('an unparseable pattern, a lone clause, a probed reading and ast_tree’s comparison', async () => {
    const unparseable = await call('ast_grep', { pattern: ')(', language: 'javascript' });
    expect(unparseable.text).toMatch(/^The pattern is unparseable as javascript/);
    const clause = await call('ast_grep', { pattern: 'except $E:', language: 'python' });
    expect(clause.text).toContain('only appears inside a larger construct');
    const probed = await call('ast_grep', { pattern: 'sizeof($T)', language: 'c' });
    expect(probed.text).toContain('sizeof(int)');
    const tree = await call('ast_tree', { pattern: 'console.log($A)', language: 'javascript' });
    expect(tree.text).toContain('console.log($A)');
    expect([...unparseable.seen, ...clause.seen, ...probed.seen, ...tree.seen]).toEqual([]);
  });
});
