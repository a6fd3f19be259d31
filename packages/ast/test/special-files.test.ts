import { execFileSync } from 'node:child_process';
import { readFileSync, rmSync, symlinkSync } from 'node:fs';
import { approveAll, createRegistry, resultText } from '@agent-tools/core';
import { tempDir } from '@agent-tools/test-utils';
import { describe, expect, it } from 'vitest';
import { astTools, createTreeSitterLoader } from '../src/index.js';

/** A FIFO is never opened (opening one blocks until a writer comes); it and symbolic links are named as skipped. */
describe('special files and symbolic links', () => {
  it('a FIFO as path is named for what it is, for ast_grep and ast_edit; nothing blocks', async () => {
    await using dir = tempDir({ 'ok.py': 'print(1)\n' });
    execFileSync('mkfifo', [dir.join('x.py')]);
    await using registry = createRegistry({
      resources: { cwd: dir.path, treeSitter: createTreeSitterLoader({ workers: 0 }) },
      factories: [astTools],
      approve: approveAll,
    });
    const found = await registry.call('ast_grep', { pattern: 'print($A)', path: 'x.py' });
    expect(resultText(found)).toBe(
      'x.py is a FIFO (named pipe), not a regular file, so it was not opened and nothing was searched. Pass a regular file or a folder as `path`.',
    );
    const edit = await registry.call('ast_edit', { pattern: 'print($A)', rewrite: 'log($A)', path: 'x.py' });
    expect(resultText(edit)).toContain('x.py is a FIFO (named pipe), not a regular file, so it was not opened');
  });

  it('a folder search counts and names the FIFOs and symbolic links of the language it skipped', async () => {
    await using dir = tempDir({ 'src/ok.py': 'print(1)\n', 'src/notes.txt': '' });
    execFileSync('mkfifo', [dir.join('src/pipe.py')]);
    execFileSync('mkfifo', [dir.join('src/pipe.txt')]);
    symlinkSync(dir.join('src/ok.py'), dir.join('src/alias.py'));
    await using registry = createRegistry({ resources: { cwd: dir.path, treeSitter: createTreeSitterLoader({ workers: 0 }) }, factories: [astTools] });
    const found = await registry.call('ast_grep', { pattern: 'print($A)', path: 'src', language: 'python' });
    const text = resultText(found);
    expect(text).toContain('src/ok.py');
    expect(text).toContain('2 files skipped as not regular files, never opened: src/alias.py (a symbolic link), src/pipe.py (a FIFO).');
    expect(text).not.toContain('pipe.txt');
    expect(found.structured).toMatchObject({ filesNotSearched: ['src/alias.py', 'src/pipe.py'] });
  });

  it('resolve of an edit whose file became a FIFO since it was staged names the FIFO and writes nothing', async () => {
    await using dir = tempDir({ 'a.py': 'print(1)\n', 'b.py': 'print(2)\n' });
    await using registry = createRegistry({
      resources: { cwd: dir.path, treeSitter: createTreeSitterLoader({ workers: 0 }) },
      factories: [astTools],
      approve: approveAll,
    });
    const staged = await registry.call('ast_edit', { pattern: 'print($A)', rewrite: 'log($A)', language: 'python' });
    expect(resultText(staged)).toContain('edit_1');
    rmSync(dir.join('b.py'));
    execFileSync('mkfifo', [dir.join('b.py')]);
    const accepted = await registry.call('resolve', { edit_id: 'edit_1', action: 'accept' });
    expect(accepted.isError).toBe(true);
    expect(resultText(accepted)).toContain('b.py (now a FIFO (named pipe), not a regular file)');
    expect(resultText(accepted)).not.toContain('gone');
    expect(readFileSync(dir.join('a.py'), 'utf8')).toBe('print(1)\n');
  });
});
