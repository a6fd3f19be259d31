import { readdirSync, utimesSync, writeFileSync } from 'node:fs';
import { tempDir } from '@agent-tools/test-utils';
import { afterAll, describe, expect, it } from 'vitest';
import { TREE_BYTES_PER_CHAR, TreeCache } from '../src/engine/tree-cache.js';
import { AstError, createTreeSitterLoader, type TreeSitterLoader } from '../src/index.js';
import { findLanguage } from '../src/languages.js';
import { searchWorkspace } from '../src/workspace/search.js';

/** Forty small python files, each calling target() once with its own number. */
function corpus() {
  const files: Record<string, string> = {};
  for (let i = 0; i < 40; i++) files[`pkg/m${String(i).padStart(2, '0')}.py`] = `def f${i}(x):\n    return target(${i}) + x\n`;
  return tempDir(files);
}

const dir = corpus();
afterAll(() => dir.remove());

async function search(loader: TreeSitterLoader, pattern: string, signal?: AbortSignal) {
  return searchWorkspace(loader, dir.path, { pattern, language: 'python' }, signal ? { signal } : {});
}

function found(summary: Awaited<ReturnType<typeof search>>): string[] {
  return summary.results.flatMap((r) => r.matches.map((m) => `${r.file}:${m.text}`));
}

describe('worker threads', () => {
  it('find exactly what the calling thread finds, sorted by file', async () => {
    await using pooled = createTreeSitterLoader({ workers: 3, inlineBytes: 0 });
    await using inline = createTreeSitterLoader({ workers: 0 });
    const a = await search(pooled, 'target($N)');
    const b = await search(inline, 'target($N)');
    expect(found(a)).toHaveLength(40);
    expect(found(a)).toEqual(found(b));
    expect(found(a)[0]).toBe('pkg/m00.py:target(0)');
    const stats = await pooled.cacheStats();
    expect(stats.length).toBe(3);
    expect(stats.reduce((n, s) => n + s.trees, 0)).toBe(40);
  });

  it('send a file back to the worker that cached it, so a repeated search parses nothing', async () => {
    await using loader = createTreeSitterLoader({ workers: 2, inlineBytes: 0 });
    await search(loader, '$A + $B');
    const first = await loader.cacheStats();
    expect(first.reduce((n, s) => n + s.trees, 0)).toBe(40);
    // Both workers took part: the shared queue hands new files to whichever is free.
    expect(first.every((s) => s.trees > 0)).toBe(true);
    await search(loader, '$X + $Y');
    const second = await loader.cacheStats();
    expect(second.reduce((n, s) => n + s.hits, 0)).toBe(40);
    expect(second.reduce((n, s) => n + s.trees, 0)).toBe(40);
  });

  it('give every new big file to the first worker, up to its share of the bytes, so only one wasm memory grows to hold big trees', async () => {
    const big = (n: number) => `def g${n}(x):\n${'    y = target(x) + 1\n'.repeat(3500)}    return y\n`;
    // Spread over the sorted list so that, handed out in order, they would fall to both workers.
    const bigOnes = ['a.py', 's20b.py', 's40b.py'];
    const files: Record<string, string> = Object.fromEntries(bigOnes.map((name, n) => [name, big(n)]));
    for (let i = 0; i < 60; i++) files[`s${String(i).padStart(2, '0')}.py`] = `def f${i}(x):\n${'    y = x + 1\n'.repeat(400)}    return target(x)\n`;
    using mixed = tempDir(files);
    expect(Buffer.byteLength(big(1))).toBeGreaterThan(64 * 1024);
    await using loader = createTreeSitterLoader({ workers: 2, inlineBytes: 0 });
    const first = await searchWorkspace(loader, mixed.path, { pattern: 'target($X)', language: 'python' });
    expect(first.totalMatches).toBe(3 * 3500 + 60);
    // Only the big files again: all are the first worker's, whatever the race for the small ones did.
    for (const file of bigOnes) await searchWorkspace(loader, mixed.path, { pattern: 'target($X)', language: 'python', path: file });
    const [one, two] = await loader.cacheStats();
    const before = { one: one?.hits ?? 0, two: two?.hits ?? 0 };
    for (const file of bigOnes) await searchWorkspace(loader, mixed.path, { pattern: 'target($X)', language: 'python', path: file });
    const [oneAfter, twoAfter] = await loader.cacheStats();
    expect((oneAfter?.hits ?? 0) - before.one).toBe(3);
    expect((twoAfter?.hits ?? 0) - before.two).toBe(0);
    // Both workers took part in the first search all the same.
    expect(one?.trees).toBeGreaterThan(3);
    expect(two?.trees).toBeGreaterThan(0);
  });

  it('are not started for a search smaller than inlineBytes; the first larger one starts them, and every later one uses them', async () => {
    const threads = (): number => readdirSync('/proc/self/task').length;
    await using loader = createTreeSitterLoader({ workers: 2, inlineBytes: 1024 });
    const baseline = threads();
    const small = await searchWorkspace(loader, dir.path, { pattern: 'target($N)', language: 'python', path: 'pkg/m01.py' });
    expect(found(small)).toEqual(['pkg/m01.py:target(1)']);
    expect(threads()).toBe(baseline);
    expect(await loader.cacheStats()).toHaveLength(1); // the calling thread's cache
    const all = await search(loader, 'target($N)'); // 40 files, about 1,600 bytes
    expect(found(all)).toHaveLength(40);
    expect(threads()).toBeGreaterThan(baseline);
    const pooled = await loader.cacheStats();
    expect(pooled).toHaveLength(2);
    const again = await searchWorkspace(loader, dir.path, { pattern: 'target($N)', language: 'python', path: 'pkg/m01.py' });
    expect(found(again)).toEqual(['pkg/m01.py:target(1)']);
    expect((await loader.cacheStats()).reduce((n, s) => n + s.hits, 0)).toBe(pooled.reduce((n, s) => n + s.hits, 0) + 1);
  });

  describe('a worker that parsed a huge file (256 KiB or more) for a search that caches nothing', () => {
    // About 300 KB: its tree takes about 10 MB of the worker's wasm memory, which never shrinks.
    const huge = `def h(x):\n${'    y = target(x) + 1\n'.repeat(14_000)}    return y\n`;
    const files: Record<string, string> = { 'a_huge.py': huge };
    for (let i = 0; i < 40; i++) files[`pkg/m${String(i).padStart(2, '0')}.py`] = `def f${i}(x):\n    return target(${i}) + small\n`;
    const tiny = { cacheBytes: 1000, inlineBytes: 0 }; // far less than the search needs: nothing is cached

    it('is replaced before its next batch without a huge file, and the search finds everything all the same', async () => {
      expect(Buffer.byteLength(huge)).toBeGreaterThan(256 * 1024);
      using mixed = tempDir(files);
      await using loader = createTreeSitterLoader({ workers: 1, ...tiny });
      const summary = await searchWorkspace(loader, mixed.path, { pattern: 'target($X)', language: 'python' });
      expect(summary.totalMatches).toBe(14_000 + 40);
      expect(summary.filesSearched).toBe(41);
      // The worker left after the search is a fresh one: it looked at the files of the batches after the huge one only.
      const [worker, ...none] = await loader.cacheStats();
      expect(none).toEqual([]);
      expect(worker?.misses).toBeGreaterThan(0);
      expect(worker?.misses).toBeLessThan(41);
    });

    it('is terminated when the search ends; a worker that skipped the huge file unparsed stays', async () => {
      using mixed = tempDir(files);
      await using loader = createTreeSitterLoader({ workers: 2, ...tiny });
      // `small` is in the small files only: the huge one is skipped unparsed.
      const skipped = await searchWorkspace(loader, mixed.path, { pattern: 'target($X) + small', language: 'python' });
      expect(skipped.totalMatches).toBe(40);
      expect(await loader.cacheStats()).toHaveLength(2);
      const parsed = await searchWorkspace(loader, mixed.path, { pattern: 'target($X) + 1', language: 'python' });
      expect(parsed.totalMatches).toBe(14_000);
      // The first worker took the huge file (new big files are its own) and is gone; the other one stays.
      expect(await loader.cacheStats()).toHaveLength(1);
      // A later search starts a worker again.
      expect((await searchWorkspace(loader, mixed.path, { pattern: 'target($X)', language: 'python' })).totalMatches).toBe(14_040);
    });
  });

  it('stop when the search is cancelled', async () => {
    await using loader = createTreeSitterLoader({ workers: 2, inlineBytes: 0 });
    const controller = new AbortController();
    controller.abort();
    await expect(search(loader, '$A + $B', controller.signal)).rejects.toMatchObject({ code: 'cancelled' });
    await using inline = createTreeSitterLoader({ workers: 0 });
    await expect(search(inline, '$A + $B', controller.signal)).rejects.toBeInstanceOf(AstError);
  });
});

describe('the tree cache', () => {
  it('keeps each searched kind\'s nodes with a cached tree, so a search rooted at the same kind finds the same matches without a walk', async () => {
    await using loader = createTreeSitterLoader({ workers: 1, inlineBytes: 0 });
    // No literal to find candidates from: they are the tree's nodes of the pattern's root kind.
    const first = found(await search(loader, '$A + $B'));
    expect(first).toHaveLength(40);
    const [one] = await loader.cacheStats();
    expect(one?.nodeLists).toBe(40);
    // Another pattern of the same root kind uses the same lists; the first pattern finds what it found.
    expect(found(await search(loader, '$F($N) + $X'))).toEqual(first);
    expect(found(await search(loader, '$A + $B'))).toEqual(first);
    expect((await loader.cacheStats())[0]?.nodeLists).toBe(40);
    // Other kinds add lists (a bare metavariable has no kind), at most four per file, the oldest going first; the
    // bytes count them.
    for (const pattern of ['$F($X)', 'return $X', 'def $F($X): $$$B', 'if $C: $$$B', '$X']) await search(loader, pattern);
    const [after] = await loader.cacheStats();
    expect(after?.nodeLists).toBe(4 * 40);
    expect(after?.bytes).toBeGreaterThan(one?.bytes ?? 0);
    expect(found(await search(loader, '$A + $B'))).toEqual(first);
  });

  it('reuses parsed trees for a repeated search and re-parses a file whose size or mtime changed', async () => {
    await using loader = createTreeSitterLoader({ workers: 1, inlineBytes: 0 });
    await search(loader, '$A + $B');
    const [first] = await loader.cacheStats();
    expect(first).toMatchObject({ trees: 40, hits: 0 });
    const again = await search(loader, '$X + $Y');
    expect(found(again)).toHaveLength(40);
    const [second] = await loader.cacheStats();
    expect(second?.hits).toBe(40);

    writeFileSync(dir.join('pkg/m07.py'), 'def f7(x):\n    return target(700) - x\n');
    const changed = await search(loader, 'target($N)');
    expect(found(changed)).toContain('pkg/m07.py:target(700)');
    const [third] = await loader.cacheStats();
    expect(third?.hits).toBe(second!.hits + 39);

    // Same size, new modification time: still re-read.
    writeFileSync(dir.join('pkg/m07.py'), 'def f7(x):\n    return target(701) - x\n');
    utimesSync(dir.join('pkg/m07.py'), new Date(), new Date(Date.now() + 5000));
    expect(found(await search(loader, 'target($N)'))).toContain('pkg/m07.py:target(701)');
    writeFileSync(dir.join('pkg/m07.py'), 'def f7(x):\n    return target(7) + x\n');
  });

  it('skips parsing files that lack the literals of the pattern', async () => {
    await using loader = createTreeSitterLoader({ workers: 1, inlineBytes: 0 });
    const summary = await search(loader, 'nowhere_to_be_found($N)');
    expect(summary.filesSearched).toBe(40);
    const [stats] = await loader.cacheStats();
    expect(stats?.trees).toBe(0);
  });

  it('stays within its byte budget, and a repeated scan keeps hitting the same part instead of thrashing', async () => {
    const perFile = 'def f10(x):\n    return target(10) + x\n'.length * (2 + TREE_BYTES_PER_CHAR) + 200;
    // 40 files, room for 25: within twice the budget, so the search is cached as far as it fits.
    const budget = perFile * 25;
    await using loader = createTreeSitterLoader({ workers: 1, inlineBytes: 0, cacheBytes: budget });
    await search(loader, '$A + $B');
    const [first] = await loader.cacheStats();
    expect(first!.bytes).toBeLessThanOrEqual(budget);
    expect(first!.trees).toBeGreaterThanOrEqual(23);
    await search(loader, '$A + $B');
    const [second] = await loader.cacheStats();
    expect(second!.hits).toBe(first!.entries);
    expect(second!.bytes).toBeLessThanOrEqual(budget);
  });

  it('does not cache a search that needs more than twice the budget (a repeat could reuse little of it)', async () => {
    const perFile = 'def f10(x):\n    return target(10) + x\n'.length * (2 + TREE_BYTES_PER_CHAR) + 200;
    await using loader = createTreeSitterLoader({ workers: 1, inlineBytes: 0, cacheBytes: perFile * 15 });
    await search(loader, '$A + $B');
    const [stats] = await loader.cacheStats();
    expect(stats).toMatchObject({ entries: 0, trees: 0 });
  });

  it('evicts entries a search did not use to make room for a new one', async () => {
    const tree = { deleted: 0, delete() { this.deleted++; } };
    const cache = new TreeCache(3000);
    cache.beginJob(1);
    expect(cache.put('a', { size: 1, mtimeMs: 1, text: 'x'.repeat(600), tree: undefined, errorRow: undefined })).toBe(true);
    expect(cache.put('b', { size: 1, mtimeMs: 1, text: 'y'.repeat(600), tree: undefined, errorRow: undefined })).toBe(true);
    // Full for this job: a third entry is declined rather than evicting what the job uses.
    expect(cache.put('c', { size: 1, mtimeMs: 1, text: 'z'.repeat(600), tree: undefined, errorRow: undefined })).toBe(false);
    cache.beginJob(2);
    expect(cache.get('b', 1, 1)).toBeDefined();
    expect(cache.put('c', { size: 1, mtimeMs: 1, text: 'z'.repeat(600), tree: undefined, errorRow: undefined })).toBe(true);
    expect(cache.get('a', 1, 1)).toBeUndefined();
    expect(cache.stats().entries).toBe(2);
    // A stale entry (new mtime) is dropped and its tree freed.
    cache.put('t', { size: 1, mtimeMs: 1, text: '', tree: tree as never, errorRow: undefined });
    expect(cache.get('t', 1, 2)).toBeUndefined();
    expect(tree.deleted).toBe(1);
  });

  it('loads the grammars it names', () => {
    expect(findLanguage('ts')?.id).toBe('typescript');
    expect(findLanguage('golang')?.id).toBe('go');
    expect(findLanguage('PY')?.id).toBe('python');
  });
});
