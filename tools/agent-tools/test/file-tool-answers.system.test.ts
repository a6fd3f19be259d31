import { readFileSync, statSync } from 'node:fs';
import { tempDir } from '@agent-tools/test-utils';
import { describe, expect, it } from 'vitest';
import { cli } from './run-cli.js';

// The harness's own tools, through the real CLI: as exact as the packages' tools.
interface Answer {
  readonly isError: boolean;
  readonly content: { text: string }[];
  readonly structured: { lines?: number } | null;
}

async function call(dir: string, tool: string, args: unknown, ...extra: string[]): Promise<Answer & { code: number | null }> {
  const { code, stdout } = await cli(['call', tool, JSON.stringify(args), '--cwd', dir, '--json', ...extra]);
  return { code, ...(JSON.parse(stdout) as Answer) };
}

const numbered = (count: number): string => Array.from({ length: count }, (_, i) => `line ${i + 1}`).join('\n');

describe('read counts lines as editors and wc -l do', () => {
  it('counts a final newline as the end of the last line, and keeps the count whatever the offset', async () => {
    using dir = tempDir({ 'a.txt': `${numbered(271)}\n`, 'b.txt': numbered(3), 'empty.txt': '' });
    const whole = await call(dir.path, 'read', { path: 'a.txt' });
    expect(whole.structured?.lines).toBe(271);
    expect(whole.content[0]?.text.split('\n').at(-1)).toBe('  271\tline 271');
    for (const offset of [1, 100, 271]) {
      const window = await call(dir.path, 'read', { path: 'a.txt', offset, limit: 10 });
      expect(window.structured?.lines).toBe(271);
      const last = Math.min(offset + 9, 271);
      const more = last < 271 ? `; continue with offset ${last + 1}` : '';
      expect(window.content[0]?.text.split('\n').at(-1)).toBe(`(lines ${offset}-${last} of 271 shown${more})`);
    }
    const past = await call(dir.path, 'read', { path: 'a.txt', offset: 272 });
    expect(past.isError).toBe(true);
    expect(past.content[0]?.text).toBe('a.txt has 271 lines; offset 272 is past the end.');
    expect((await call(dir.path, 'read', { path: 'b.txt' })).structured?.lines).toBe(3);
    const empty = await call(dir.path, 'read', { path: 'empty.txt' });
    expect(empty).toMatchObject({ isError: false, content: [{ text: 'empty.txt is empty (0 lines).' }], structured: { lines: 0 } });
  });

  it('write reports the same count', async () => {
    using dir = tempDir({});
    const written = await call(dir.path, 'write', { path: 'c.txt', content: `${numbered(271)}\n` }, '--yes');
    expect(written.content[0]?.text).toBe('Created c.txt (271 lines).');
  });
});

describe('edit', () => {
  it('says nothing changed when new_text is identical to old_text, and leaves the file alone', async () => {
    using dir = tempDir({ 'a.ts': 'export const a = 1;\n' });
    const before = statSync(dir.join('a.ts')).mtimeMs;
    const same = await call(dir.path, 'edit', { path: 'a.ts', old_text: 'a = 1', new_text: 'a = 1' }, '--yes');
    expect(same.code).toBe(1);
    expect(same.isError).toBe(true);
    expect(same.content[0]?.text).toBe(
      'Nothing changed: new_text is identical to old_text, so a.ts was left as it was. Pass the text the file should contain instead.',
    );
    expect(statSync(dir.join('a.ts')).mtimeMs).toBe(before);
    const changed = await call(dir.path, 'edit', { path: 'a.ts', old_text: 'a = 1', new_text: 'a = 2' }, '--yes');
    expect(changed.content[0]?.text).toBe('Edited a.ts (1 replacement).');
    expect(readFileSync(dir.join('a.ts'), 'utf8')).toBe('export const a = 2;\n');
  });
});

describe('a write tool called in plan mode', () => {
  it('is answered as an unknown tool, with why and what to use instead', async () => {
    using dir = tempDir({ 'app.py': 'print(1)\n' });
    const edit = await call(dir.path, 'ast_edit', { pattern: 'print($X)', rewrite: 'log($X)' }, '--surface', 'plan', '--yes');
    expect(edit.code).toBe(1);
    expect(edit.content[0]?.text).toMatch(
      /^Unknown tool "ast_edit": it is not available on the "plan" surface, which admits read-tier tools only \(ast_edit is write-tier\)\. Do not retry it here\. To look instead, use ast_grep\b[^.]*\. The tools available here are: .*\bast_grep\b.*\bread\b/,
    );
    expect(readFileSync(dir.join('app.py'), 'utf8')).toBe('print(1)\n');
  });
});

describe('the plain repl', () => {
  it('separates answers: a header per call saying which tool answered and whether it failed, a blank line between', async () => {
    using dir = tempDir({ 'notes.txt': 'one\ntwo\n' });
    const input = ['read {"path":"notes.txt"}', '# a comment', '', 'nope {}', 'read {"path":"notes.txt","offset":2}'].join('\n');
    const { code, stdout } = await cli(['repl', '--cwd', dir.path], { input });
    expect(code).toBe(0);
    const blocks = stdout.split('\n\n');
    expect(blocks).toHaveLength(3);
    expect(blocks[0]).toBe('── read ──\nnotes.txt\n    1\tone\n    2\ttwo');
    expect(blocks[1]).toMatch(/^── nope \(error\) ──\nUnknown tool "nope"\./);
    expect(blocks[2]).toBe('── read ──\nnotes.txt\n    2\ttwo\n(lines 2-2 of 2 shown)\n');
  });
});
