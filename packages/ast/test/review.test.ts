import { mkdirSync, writeFileSync } from 'node:fs';
import { resultText } from '@agent-tools/core';
import { afterAll, describe, expect, it } from 'vitest';
import { type AstGrepResult, createTreeSitterLoader, type ResolveResult } from '../src/index.js';
import { realWorkspace } from './real-code.js';

const loader = createTreeSitterLoader({ workers: 0 });
afterAll(() => loader.dispose());

const PY = '/usr/lib/python3.11';

describe('a staged edit can be reviewed whole (issue 21, reviewability)', () => {
  it('a cut preview says so first, lists every changed line range, and resolve show pages through the rest', async () => {
    await using t = realWorkspace(loader, [`${PY}/argparse.py`, `${PY}/subprocess.py`, `${PY}/tempfile.py`]);
    const result = await t.edit({ pattern: 'isinstance($X, $T)', rewrite: 'is_a($X, $T)', language: 'python' });
    const lines = result.text.split('\n');
    expect(lines[0]).toMatch(/^\(proposed; diff preview cut at 150 of (\d+) lines\)/);
    const total = Number(/of (\d+) lines/.exec(lines[0] as string)?.[1]);
    expect(result.structured.diffLines).toBe(total);
    // Every file and every changed range is listed before the diff.
    const listed = result.text.slice(result.text.indexOf('Every change (original line numbers):'), result.text.indexOf('--- a/'));
    for (const file of result.structured.files) expect(listed).toContain(`  ${file.file}: `);
    for (const range of result.structured.changedLines) {
      for (const r of range.ranges) {
        const first = Number(/\d+/.exec(r)?.[0]);
        // Each listed range is a changed line of the diff.
        expect(result.structured.diff).toContain(`-${t.read(range.file).split('\n')[first - 1]}`);
      }
    }
    // Paging: show from 0 and on until the end gives back the whole diff, line for line.
    const pages: string[] = [];
    let offset: number | undefined = 0;
    while (offset !== undefined) {
      const page = await t.call('resolve', { edit_id: 'edit_1', action: 'show', offset });
      const s = page.structured as ResolveResult;
      expect(resultText(page).split('\n')[0]).toMatch(new RegExp(`^edit_1 \\(staged\\): diff lines ${offset + 1}-\\d+ of ${total}`));
      pages.push(s.diff ?? '');
      offset = s.nextOffset;
    }
    expect(pages.join('\n')).toBe(result.structured.diff);
    // One file's diff alone.
    const one = await t.call('resolve', { edit_id: 'edit_1', action: 'show', file: 'tempfile.py' });
    expect((one.structured as ResolveResult).diff).toMatch(/^--- a\/tempfile\.py\n/);
    expect((one.structured as ResolveResult).diff).not.toContain('argparse.py');
    // Showing wrote nothing; the edit can still be accepted.
    expect(t.read('argparse.py')).toContain('isinstance(');
    expect((await t.accept()).isError).toBe(false);
    expect(t.read('argparse.py')).not.toMatch(/\bisinstance\(/);
  });

  it('a path of another language says which one was meant', async () => {
    await using t = realWorkspace(loader, [`${PY}/argparse.py`]);
    const result = await t.call('ast_grep', { pattern: 'foo($A)', path: 'argparse.py', language: 'javascript' });
    expect(result.isError).toBe(true);
    expect(resultText(result)).toContain('argparse.py is a .py file, which is python, but language is "javascript": did you mean python?');
  });

  it('a folder holding one language infers it, and one holding several names them', async () => {
    await using t = realWorkspace(loader, []);
    mkdirSync(t.dir.join('py'));
    writeFileSync(t.dir.join('py/a.py'), 'print(1)\n');
    writeFileSync(t.dir.join('py/b.py'), 'print(2)\n');
    const one = await t.call('ast_grep', { pattern: 'print($A)', path: 'py' });
    expect((one.structured as AstGrepResult).totalMatches).toBe(2);
    expect(resultText(one)).toContain('Language inferred: python, the only language of the source files under py/ (2 files).');
    writeFileSync(t.dir.join('py/c.js'), 'print(3);\n');
    const two = await t.call('ast_grep', { pattern: 'print($A)', path: 'py' });
    expect(two.isError).toBe(true);
    expect(resultText(two)).toContain('It holds python (2 files), javascript (1 file). Pass `language`');
  });
});
