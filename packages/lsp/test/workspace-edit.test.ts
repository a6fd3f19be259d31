import { existsSync, readdirSync, readFileSync, renameSync, symlinkSync, writeFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { tempDir } from '@agent-tools/test-utils';
import { describe, expect, it } from 'vitest';
import type { WorkspaceEdit } from 'vscode-languageserver-protocol';
import { applyTextEdits } from '../src/edits/text-edits.js';
import { applyEditPlan, planWorkspaceEdit } from '../src/edits/workspace-edit.js';
import { LspError } from '../src/errors.js';

const range = (line: number, start: number, endLine: number, end: number) => ({
  start: { line, character: start },
  end: { line: endLine, character: end },
});

function thrown(fn: () => unknown): LspError {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(LspError);
    return error as LspError;
  }
  throw new Error('expected an error');
}

async function rejected(promise: Promise<unknown>): Promise<LspError> {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(LspError);
    return error as LspError;
  }
  throw new Error('expected an error');
}

describe('applyTextEdits', () => {
  it('applies edits against the original text, from the end', () => {
    const text = 'const a = 1;\nconst b = a + a;\n';
    const edits = [
      { range: range(0, 6, 0, 7), newText: 'alpha' },
      { range: range(1, 10, 1, 11), newText: 'alpha' },
      { range: range(1, 14, 1, 15), newText: 'alpha' },
    ];
    expect(applyTextEdits(text, edits, 'x.ts')).toBe('const alpha = 1;\nconst b = alpha + alpha;\n');
  });

  it('handles CRLF, multi-line ranges, inserts and a character past the line end', () => {
    const text = 'one\r\ntwo\r\nthree';
    expect(applyTextEdits(text, [{ range: range(0, 3, 1, 3), newText: '+2' }], 'x')).toBe('one+2\r\nthree');
    expect(applyTextEdits(text, [{ range: range(1, 0, 1, 0), newText: '>' }], 'x')).toBe('one\r\n>two\r\nthree');
    expect(applyTextEdits(text, [{ range: range(0, 99, 0, 99), newText: '!' }], 'x')).toBe('one!\r\ntwo\r\nthree');
  });

  it('refuses overlapping edits', () => {
    const error = thrown(() =>
      applyTextEdits('abcdef', [
        { range: range(0, 0, 0, 3), newText: 'x' },
        { range: range(0, 2, 0, 4), newText: 'y' },
      ], 'x.ts'),
    );
    expect(error.detail).toBe('The server sent overlapping edits for x.ts; nothing was changed.');
  });
});

describe('planWorkspaceEdit and applyEditPlan: all or nothing', () => {
  const uri = (path: string) => pathToFileURL(path).href;
  const none = () => undefined;

  it('applies text edits to several files and leaves no temporary files', async () => {
    using dir = tempDir({ 'a.ts': 'let x = 1;\n', 'b.ts': 'x;\nx;\n' });
    const edit: WorkspaceEdit = {
      changes: {
        [uri(dir.join('a.ts'))]: [{ range: range(0, 4, 0, 5), newText: 'y' }],
        [uri(dir.join('b.ts'))]: [
          { range: range(0, 0, 0, 1), newText: 'y' },
          { range: range(1, 0, 1, 1), newText: 'y' },
        ],
      },
    };
    const plan = planWorkspaceEdit(edit, dir.path, none);
    expect(plan.changes.map((c) => c.edits)).toEqual([1, 2]);
    await applyEditPlan(plan, dir.path);
    expect(readFileSync(dir.join('a.ts'), 'utf8')).toBe('let y = 1;\n');
    expect(readFileSync(dir.join('b.ts'), 'utf8')).toBe('y;\ny;\n');
    expect(readdir(dir.path)).toEqual(['a.ts', 'b.ts']);
  });

  it('applies create, rename and delete operations in order', async () => {
    using dir = tempDir({ 'old.ts': 'export {};\n', 'gone.ts': 'x\n' });
    const edit: WorkspaceEdit = {
      documentChanges: [
        { kind: 'create', uri: uri(dir.join('sub/new.ts')) },
        { textDocument: { uri: uri(dir.join('sub/new.ts')), version: null }, edits: [{ range: range(0, 0, 0, 0), newText: 'export const n = 1;\n' }] },
        { kind: 'rename', oldUri: uri(dir.join('old.ts')), newUri: uri(dir.join('renamed.ts')) },
        { kind: 'delete', uri: uri(dir.join('gone.ts')) },
      ],
    };
    await applyEditPlan(planWorkspaceEdit(edit, dir.path, none), dir.path);
    expect(readFileSync(dir.join('sub/new.ts'), 'utf8')).toBe('export const n = 1;\n');
    expect(readFileSync(dir.join('renamed.ts'), 'utf8')).toBe('export {};\n');
    expect(existsSync(dir.join('old.ts'))).toBe(false);
    expect(existsSync(dir.join('gone.ts'))).toBe(false);
  });

  it('refuses an edit outside the working directory before writing anything', () => {
    using dir = tempDir({ 'in/a.ts': 'a\n' });
    using outside = tempDir({ 'b.ts': 'b\n' });
    const edit: WorkspaceEdit = {
      changes: {
        [uri(dir.join('in/a.ts'))]: [{ range: range(0, 0, 0, 1), newText: 'A' }],
        [uri(outside.join('b.ts'))]: [{ range: range(0, 0, 0, 1), newText: 'B' }],
      },
    };
    const error = thrown(() => planWorkspaceEdit(edit, dir.join('in'), none));
    expect(error.detail).toBe(`The edit would change ${outside.join('b.ts')}, outside the working directory; nothing was changed.`);
    expect(readFileSync(dir.join('in/a.ts'), 'utf8')).toBe('a\n');
  });

  it('refuses an edit of a file that a symbolic link leads out of the working directory, naming it as the model knows it', () => {
    using dir = tempDir({ 'in/a.ts': 'a\n' });
    using outside = tempDir({ 'b.ts': 'b\n' });
    symlinkSync(outside.join('b.ts'), dir.join('in/linked.ts'));
    const edit: WorkspaceEdit = { changes: { [uri(dir.join('in/linked.ts'))]: [{ range: range(0, 0, 0, 1), newText: 'B' }] } };
    const error = thrown(() => planWorkspaceEdit(edit, dir.join('in'), none));
    expect(error.detail).toBe('The edit would change linked.ts, which a symbolic link leads outside the working directory; nothing was changed.');
    expect(readFileSync(outside.join('b.ts'), 'utf8')).toBe('b\n');
  });

  it('refuses a file that is not UTF-8 (a Latin-1 comment) with that reason, not as a file that changed on disk', () => {
    using dir = tempDir({});
    writeFileSync(dir.join('a.c'), Buffer.concat([Buffer.from('int a;\n/* caf'), Buffer.from([0xe9]), Buffer.from(' */\nint helper;\n')]));
    const edit: WorkspaceEdit = { changes: { [uri(dir.join('a.c'))]: [{ range: range(2, 4, 2, 10), newText: 'assist' }] } };
    const error = thrown(() => planWorkspaceEdit(edit, dir.path, none));
    expect(error.detail).toBe(
      'a.c is not UTF-8 text (line 2 has other bytes), and edits are made on UTF-8 only; nothing was changed. Edit it with your own tools, or convert it to UTF-8 first.',
    );
  });

  it('refuses an edit computed for another version of an open document', () => {
    using dir = tempDir({ 'a.ts': 'a\n' });
    const edit: WorkspaceEdit = {
      documentChanges: [{ textDocument: { uri: uri(dir.join('a.ts')), version: 3 }, edits: [{ range: range(0, 0, 0, 1), newText: 'b' }] }],
    };
    const error = thrown(() => planWorkspaceEdit(edit, dir.path, () => ({ version: 4, text: 'a\n' })));
    expect(error.detail).toBe('The edit was computed for version 3 of a.ts, but the server has version 4; nothing was changed. Call lsp_rename again.');
  });

  it('refuses when the disk no longer matches what the server was sent', () => {
    using dir = tempDir({ 'a.ts': 'changed behind its back\n' });
    const edit: WorkspaceEdit = { changes: { [uri(dir.join('a.ts'))]: [{ range: range(0, 0, 0, 1), newText: 'b' }] } };
    const error = thrown(() => planWorkspaceEdit(edit, dir.path, () => ({ version: 1, text: 'a\n' })));
    expect(error.detail).toBe('a.ts changed on disk after the server read it; nothing was changed. Call lsp_rename again.');
  });

  it('refuses when a file changes between planning and applying', async () => {
    using dir = tempDir({ 'a.ts': 'a\n' });
    const plan = planWorkspaceEdit({ changes: { [uri(dir.join('a.ts'))]: [{ range: range(0, 0, 0, 1), newText: 'b' }] } }, dir.path, none);
    writeFileSync(dir.join('a.ts'), 'someone else\n');
    const error = await rejected(applyEditPlan(plan, dir.path));
    expect(error.detail).toBe('a.ts changed on disk while the edit was prepared; nothing was changed. Call lsp_rename again.');
    expect(readFileSync(dir.join('a.ts'), 'utf8')).toBe('someone else\n');
  });

  it('writes nothing when staging fails (a folder turned into a file after planning)', async () => {
    using dir = tempDir({ 'a.ts': 'a\n' });
    const edit: WorkspaceEdit = {
      documentChanges: [
        { textDocument: { uri: uri(dir.join('a.ts')), version: null }, edits: [{ range: range(0, 0, 0, 1), newText: 'changed' }] },
        { kind: 'create', uri: uri(dir.join('sub/new.ts')) },
      ],
    };
    const plan = planWorkspaceEdit(edit, dir.path, none);
    writeFileSync(dir.join('sub'), 'now a file\n');
    const error = await rejected(applyEditPlan(plan, dir.path));
    expect(error.detail).toMatch(/^Applying the edit failed \(.*\); every file was restored\.$/);
    // What the model reads names files relative to the working directory, never an absolute temporary path.
    expect(error.detail).not.toContain(dir.path);
    expect(error.detail).not.toMatch(/agent-tools-[0-9a-f]+\.tmp/);
    expect(readFileSync(dir.join('a.ts'), 'utf8')).toBe('a\n');
    expect(readdir(dir.path)).toEqual(['a.ts', 'sub']);
  });

  it('restores files already replaced when a later one fails (injected rename failure)', async () => {
    using dir = tempDir({ 'a.ts': 'a\n', 'b.ts': 'b\n', 'c.ts': 'c\n' });
    const edit: WorkspaceEdit = {
      changes: Object.fromEntries(['a.ts', 'b.ts', 'c.ts'].map((f) => [uri(dir.join(f)), [{ range: range(0, 0, 0, 1), newText: 'X' }]])),
    };
    const plan = planWorkspaceEdit(edit, dir.path, none);
    let renames = 0;
    const io = {
      rename: async (from: string, to: string) => {
        if (++renames === 3) throw Object.assign(new Error('disk full'), { code: 'ENOSPC' });
        renameSync(from, to);
      },
    };
    const error = await rejected(applyEditPlan(plan, dir.path, io));
    expect(error.detail).toBe('Applying the edit failed (disk full); every file was restored.');
    expect(['a.ts', 'b.ts', 'c.ts'].map((f) => readFileSync(dir.join(f), 'utf8'))).toEqual(['a\n', 'b\n', 'c\n']);
    expect(readdir(dir.path)).toEqual(['a.ts', 'b.ts', 'c.ts']);
  });
});

function readdir(path: string): string[] {
  return readdirSync(path).sort();
}
