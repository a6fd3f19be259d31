import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createRegistry, resultText } from '@agent-tools/core';
import { tempDir } from '@agent-tools/test-utils';
import { afterAll, describe, expect, it } from 'vitest';
import { type AstGrepResult, astTools, createTreeSitterLoader } from '../src/index.js';

const outside = tempDir({ 'secret.ts': 'foo(1);\n' });
const dir = tempDir({
  'src/a.ts': 'foo(1);\n',
  'src/b.ts': 'export const x = foo(2);\n',
  'src/broken.ts': 'foo(3);\nfunction (\n',
  'src/c.tsx': 'foo(4);\n',
  'src/gen/out.ts': 'foo(5);\n',
  'src/gen/keep.ts': 'foo(6);\n',
  'src/gen/.gitignore': '!keep.ts\n',
  'node_modules/dep/index.ts': 'foo(7);\n',
  '.hidden/x.ts': 'foo(8);\n',
  'dist/bundle.ts': 'foo(9);\n',
  '.gitignore': 'dist/\nsrc/gen/*\n',
  'py/app.py': 'foo(10)\n',
  'notes.txt': 'foo(11);\n',
});
writeFileSync(dir.join('src/blob.ts'), Buffer.from([0x66, 0x6f, 0x6f, 0x00, 0x28, 0x29]));
symlinkSync(outside.path, dir.join('src/linked'));
symlinkSync(outside.join('secret.ts'), dir.join('src/secret-link.ts'));
afterAll(() => {
  dir.remove();
  outside.remove();
});

const registry = createRegistry({ resources: { cwd: dir.path, treeSitter: createTreeSitterLoader() }, factories: [astTools] });
afterAll(() => registry.dispose());

async function grep(args: Record<string, unknown>) {
  const result = await registry.call('ast_grep', { pattern: 'foo($A)', ...args });
  return { result, text: resultText(result), data: result.structured as AstGrepResult | undefined };
}

describe('workspace search', () => {
  it('walks the workspace honouring .gitignore (nested negations too) and skipping node_modules, hidden and binary files', async () => {
    const { result, data, text } = await grep({ language: 'typescript' });
    expect(result.isError).toBe(false);
    expect(data?.matches.map((m) => `${m.file}:${m.captures['A']?.text}`)).toEqual([
      'src/a.ts:1',
      'src/b.ts:2',
      'src/broken.ts:3',
      'src/gen/keep.ts:6',
    ]);
    expect(text).toContain('4 matches of `foo($A)` in 4 files');
    // Only the language's own extensions: .tsx is tsx, .py is python.
    expect(text).not.toContain('c.tsx');
    // A symbolic link is never followed (it could lead outside), and the answer says so.
    expect(data?.filesNotSearched).toEqual(['src/blob.ts', 'src/secret-link.ts']);
    expect(text).toContain('1 file skipped as not regular files, never opened: src/secret-link.ts (a symbolic link).');
    expect(text).toContain('Skipped as binary: src/blob.ts.');
  });

  it('names files with syntax errors: searched anyway, not silently skipped', async () => {
    const { data, text } = await grep({ language: 'typescript', path: 'src' });
    expect(data?.filesWithSyntaxErrors).toEqual(['src/broken.ts']);
    expect(text).toMatch(/1 file with syntax errors was searched anyway; matches inside the broken part may be missing: src\/broken\.ts:2\./);
  });

  it('searches a folder named explicitly even when .gitignore excludes it', async () => {
    const { data } = await grep({ language: 'typescript', path: 'dist' });
    expect(data?.matches.map((m) => m.file)).toEqual(['dist/bundle.ts']);
  });

  it('infers the language from a file and reports structured positions (1-based, end column exclusive)', async () => {
    const { data } = await grep({ path: 'src/b.ts' });
    expect(data).toMatchObject({ language: 'typescript', filesSearched: 1, totalMatches: 1 });
    expect(data?.matches[0]).toEqual({
      file: 'src/b.ts',
      startLine: 1,
      endLine: 1,
      startColumn: 18,
      endColumn: 24,
      text: 'foo(2)',
      captures: { A: { text: '2', startLine: 1, startColumn: 22, endLine: 1, endColumn: 23 } },
      anonymous: [],
    });
  });

  it('caps the shown matches and says N of M', async () => {
    const many = Array.from({ length: 30 }, (_, i) => `foo(${i});`).join('\n');
    dir.write({ 'many/m.js': many });
    const { data, text } = await grep({ language: 'javascript', path: 'many', max_results: 5 });
    expect(data).toMatchObject({ totalMatches: 30, shownMatches: 5 });
    expect(data?.matches).toHaveLength(5);
    expect(text).toContain('5 of 30 shown');
  });

  it('a zero-match answer says what was searched', async () => {
    const { result, text } = await grep({ pattern: 'bar($A)', language: 'typescript', path: 'src' });
    expect(result.isError).toBe(false);
    expect(text).toContain('No match for `bar($A)` in 4 typescript files (.ts, .mts, .cts) under src/.');
    expect(text).toContain('read as a fragment on its own whose root is call_expression');
    const none = await grep({ language: 'rust', path: 'src' });
    expect(none.text).toContain('No rust files (.rs) under src/, so nothing was searched.');
  });

  it('refuses an unknown or missing language with the list of supported ids', async () => {
    const unknown = await grep({ language: 'cobol' });
    expect(unknown.result.isError).toBe(true);
    expect(unknown.text).toMatch(/^Unknown language "cobol"\. Supported languages: bash, c, cpp/);
    expect(unknown.result.structured).toEqual({ error: 'unknown_language' });
    const folder = await grep({ path: 'src' });
    expect(folder.result.isError).toBe(true);
    expect(folder.text).toMatch(/"src" is a directory and the language was not given\. It holds typescript \(\d+ files\), tsx \(1 file\)/);
    const noExt = await grep({ path: 'notes.txt' });
    expect(noExt.text).toContain('cannot be inferred from its extension');
  });

  it('stays inside the working directory: .., absolute paths and symlinks leading out are refused', async () => {
    for (const path of ['../', outside.path, 'src/linked', 'src/linked/secret.ts', 'src/secret-link.ts']) {
      const { result, text } = await grep({ language: 'typescript', path });
      expect(result.isError, path).toBe(true);
      expect(text, path).toMatch(/outside the working directory/);
      expect(text, path).not.toContain('[agent-tools/');
      expect(result.structured, path).toEqual({ error: 'outside_workspace' });
    }
    // The walk does not follow the links either.
    const { data } = await grep({ language: 'typescript', path: 'src' });
    expect(data?.matches.map((m) => m.file).some((f) => f.includes('link'))).toBe(false);
  });

  it('says so when the path does not exist', async () => {
    const { result, text } = await grep({ language: 'typescript', path: 'nope' });
    expect(result.isError).toBe(true);
    expect(text).toContain('There is no file or directory "nope"');
  });

  it('reports files too large to search by name', async () => {
    await using small = tempDir({ 'big.py': `x = [${'1, '.repeat(2000)}]\nfoo(1)\n`, 'ok.py': 'foo(2)\n' });
    await using reg = createRegistry({
      resources: { cwd: small.path, treeSitter: createTreeSitterLoader({ maxFileBytes: 1000, workers: 0 }) },
      factories: [astTools],
    });
    const result = await reg.call('ast_grep', { pattern: 'foo($A)', language: 'python' });
    expect((result.structured as AstGrepResult).filesNotSearched).toEqual(['big.py (6 KiB)']);
    expect(resultText(result)).toContain('Skipped as too large: big.py (6 KiB).');
  });

  it('also works with a directory created after the first search (no stale walk)', async () => {
    mkdirSync(join(dir.path, 'later'));
    writeFileSync(join(dir.path, 'later', 'l.ts'), 'foo(12);\n');
    const { data } = await grep({ language: 'typescript', path: 'later' });
    expect(data?.totalMatches).toBe(1);
  });
});
