import { approveAll, createRegistry, resultText } from '@agent-tools/core';
import { tempDir } from '@agent-tools/test-utils';
import { afterAll, describe, expect, it } from 'vitest';
import { type AstGrepResult, astTools } from '../src/index.js';
import { inlineLoader } from './helpers.js';

const loader = inlineLoader();
afterAll(() => loader.dispose());

async function grep(files: Record<string, string>, args: Record<string, unknown>) {
  await using dir = tempDir(files);
  const registry = createRegistry({ resources: { cwd: dir.path, treeSitter: loader }, factories: [astTools], approve: approveAll });
  const result = await registry.call('ast_grep', args);
  return { text: resultText(result), structured: result.structured as AstGrepResult, isError: result.isError };
}

describe('ast_grep paging (issue 10)', () => {
  const code = Array.from({ length: 617 }, (_, i) => `log(${i});`).join('\n');

  it('says in its first line how much is shown and where to continue; offset reads the rest, in a stable order', async () => {
    const first = await grep({ 'a.ts': code }, { pattern: 'log($N)', path: 'a.ts', max_results: 500 });
    expect(first.text.split('\n')[0]).toBe('617 matches of `log($N)` in 1 file (searched a.ts (typescript)); 1-500 shown; continue with offset 500.');
    expect(first.structured).toMatchObject({ totalMatches: 617, shownMatches: 500, offset: 0, nextOffset: 500 });
    const rest = await grep({ 'a.ts': code }, { pattern: 'log($N)', path: 'a.ts', max_results: 500, offset: 500 });
    expect(rest.text.split('\n')[0]).toBe('617 matches of `log($N)` in 1 file (searched a.ts (typescript)); 501-617 shown.');
    expect(rest.structured.nextOffset).toBeUndefined();
    const seen = [...first.structured.matches, ...rest.structured.matches].map((m) => m.captures['N']?.text);
    expect(seen).toEqual(Array.from({ length: 617 }, (_, i) => String(i)));
    const past = await grep({ 'a.ts': code }, { pattern: 'log($N)', path: 'a.ts', offset: 700 });
    expect(past.text.split('\n')[0]).toContain('none shown: offset 700 is past the last match');
  });

  it('a page that crosses files takes the end of one and the start of the next; each file records only what a page can reach', async () => {
    const files = { 'a.ts': Array.from({ length: 30 }, (_, i) => `log(${i});`).join('\n'), 'b.ts': Array.from({ length: 40 }, (_, i) => `log(${100 + i});`).join('\n') };
    const page = await grep(files, { pattern: 'log($N)', language: 'typescript', offset: 25, max_results: 10 });
    expect(page.text.split('\n')[0]).toBe('70 matches of `log($N)` in 2 files (searched 2 typescript files (.ts, .mts, .cts) under the working directory); 26-35 shown; continue with offset 35.');
    expect(page.structured.matches.map((m) => `${m.file}:${m.captures['N']?.text}`)).toEqual([
      ...[25, 26, 27, 28, 29].map((n) => `a.ts:${n}`),
      ...[100, 101, 102, 103, 104].map((n) => `b.ts:${n}`),
    ]);
    expect(page.text).toContain('a.ts (30 matches)');
    expect(page.text).toContain('b.ts (40 matches)');
    const last = await grep(files, { pattern: 'log($N)', language: 'typescript', offset: 65, max_results: 10 });
    expect(last.structured.matches.map((m) => m.captures['N']?.text)).toEqual(['135', '136', '137', '138', '139']);
    expect(last.structured.nextOffset).toBeUndefined();
  });

  it('captures carry their place; unnamed $$$ runs are listed too', async () => {
    const found = await grep({ 'a.py': 'x = 1\nf(a,\n  b, c)\n' }, { pattern: 'f($A, $$$)', path: 'a.py' });
    const match = found.structured.matches[0];
    expect(match?.captures['A']).toEqual({ text: 'a', startLine: 2, startColumn: 3, endLine: 2, endColumn: 4 });
    expect(match?.anonymous).toEqual([{ text: 'b, c', startLine: 3, startColumn: 3, endLine: 3, endColumn: 7, items: ['b', 'c'] }]);
  });
});
