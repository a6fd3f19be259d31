import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, lstatSync, readdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { rename } from 'node:fs/promises';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { applyFileChanges } from '../src/file-changes.js';
import { fileLockBusy } from '../src/file-lock.js';
import { withFileLock } from '../src/index.js';
import { scratch } from './helpers.js';

function files(dir: string, names: Record<string, string>): void {
  for (const [name, content] of Object.entries(names)) writeFileSync(join(dir, name), content);
}

function everything(dir: string): string[] {
  return readdirSync(dir, { recursive: true }).map(String).sort();
}

describe('applyFileChanges', () => {
  it('modifies, creates (with folders) and deletes files, keeping modes and leaving no temporaries', async () => {
    using dir = scratch();
    files(dir.path, { 'a.sh': 'echo a\n', 'gone.txt': 'x' });
    chmodSync(join(dir.path, 'a.sh'), 0o755);
    const outcome = await applyFileChanges([
      { path: join(dir.path, 'a.sh'), before: 'echo a\n', after: 'echo b\n' },
      { path: join(dir.path, 'new/deep/b.ts'), before: undefined, after: 'export {};\n' },
      { path: join(dir.path, 'gone.txt'), before: 'x', after: undefined },
    ]);
    expect(outcome).toEqual({ ok: true });
    expect(readFileSync(join(dir.path, 'a.sh'), 'utf8')).toBe('echo b\n');
    expect(statSync(join(dir.path, 'a.sh')).mode & 0o777).toBe(0o755);
    expect(everything(dir.path)).toEqual(['a.sh', 'new', 'new/deep', 'new/deep/b.ts']);
  });

  it('writes nothing when any file differs from what the change expects, and says how', async () => {
    using dir = scratch();
    files(dir.path, { 'a.ts': 'a', 'b.ts': 'someone else', 'c.ts': 'c' });
    const outcome = await applyFileChanges([
      { path: join(dir.path, 'a.ts'), before: 'a', after: 'A' },
      { path: join(dir.path, 'b.ts'), before: 'b', after: 'B' },
      { path: join(dir.path, 'c.ts'), before: undefined, after: 'C' },
      { path: join(dir.path, 'd.ts'), before: 'd', after: 'D' },
    ]);
    expect(outcome).toEqual({
      ok: false,
      kind: 'changed',
      changed: [
        { path: join(dir.path, 'b.ts'), now: 'modified' },
        { path: join(dir.path, 'c.ts'), now: 'present' },
        { path: join(dir.path, 'd.ts'), now: 'missing' },
      ],
    });
    expect(readFileSync(join(dir.path, 'a.ts'), 'utf8')).toBe('a');
  });

  it('compares bytes, so a file that is not valid UTF-8 is never rewritten from a lossy reading', async () => {
    using dir = scratch();
    writeFileSync(join(dir.path, 'latin1.txt'), Buffer.from([0x63, 0x61, 0x66, 0xe9]));
    const lossy = readFileSync(join(dir.path, 'latin1.txt'), 'utf8');
    const outcome = await applyFileChanges([{ path: join(dir.path, 'latin1.txt'), before: lossy, after: 'x' }]);
    expect(outcome).toMatchObject({ ok: false, kind: 'changed' });
  });

  it('writes through a symlink, leaving the link a link', async () => {
    using dir = scratch();
    files(dir.path, { 'real.ts': 'old' });
    symlinkSync(join(dir.path, 'real.ts'), join(dir.path, 'alias.ts'));
    expect(await applyFileChanges([{ path: join(dir.path, 'alias.ts'), before: 'old', after: 'new' }])).toEqual({ ok: true });
    expect(lstatSync(join(dir.path, 'alias.ts')).isSymbolicLink()).toBe(true);
    expect(readFileSync(join(dir.path, 'real.ts'), 'utf8')).toBe('new');
  });

  it('restores every file already replaced when a later step fails, removes created folders and temporaries', async () => {
    using dir = scratch();
    files(dir.path, { 'a.ts': 'a', 'b.ts': 'b', 'c.ts': 'c' });
    let renames = 0;
    const outcome = await applyFileChanges(
      [
        { path: join(dir.path, 'a.ts'), before: 'a', after: 'A' },
        { path: join(dir.path, 'sub/new.ts'), before: undefined, after: 'N' },
        { path: join(dir.path, 'b.ts'), before: 'b', after: undefined },
        { path: join(dir.path, 'c.ts'), before: 'c', after: 'C' },
      ],
      {
        rename: async (from, to) => {
          if (++renames === 3) throw Object.assign(new Error('disk full'), { code: 'ENOSPC' });
          await rename(from, to);
        },
      },
    );
    expect(outcome).toEqual({
      ok: false,
      kind: 'failed',
      reason: 'disk full',
      restored: [join(dir.path, 'a.ts'), join(dir.path, 'sub/new.ts'), join(dir.path, 'b.ts')],
      notRestored: [],
    });
    expect(['a.ts', 'b.ts', 'c.ts'].map((f) => readFileSync(join(dir.path, f), 'utf8'))).toEqual(['a', 'b', 'c']);
    expect(existsSync(join(dir.path, 'sub'))).toBe(false);
    expect(everything(dir.path)).toEqual(['a.ts', 'b.ts', 'c.ts']);
  });

  it('throws a bug (not a file-system error) once every file is back, instead of answering it as a failed write', async () => {
    using dir = scratch();
    files(dir.path, { 'a.ts': 'a', 'b.ts': 'b' });
    const bug = new TypeError("Cannot read properties of undefined (reading 'path')");
    let renames = 0;
    const applying = applyFileChanges(
      [
        { path: join(dir.path, 'a.ts'), before: 'a', after: 'A' },
        { path: join(dir.path, 'b.ts'), before: 'b', after: 'B' },
      ],
      {
        rename: async (from, to) => {
          if (++renames === 2) throw bug;
          await rename(from, to);
        },
      },
    );
    await expect(applying).rejects.toBe(bug);
    expect(['a.ts', 'b.ts'].map((f) => readFileSync(join(dir.path, f), 'utf8'))).toEqual(['a', 'b']);
    expect(readdirSync(dir.path).sort()).toEqual(['a.ts', 'b.ts']);
  });

  it('compares each file once more right before its rename: a file changed while the temporaries were written refuses everything', async () => {
    using dir = scratch();
    files(dir.path, { 'a.ts': 'a', 'b.ts': 'b' });
    const outcome = await applyFileChanges(
      [
        { path: join(dir.path, 'a.ts'), before: 'a', after: 'A' },
        { path: join(dir.path, 'b.ts'), before: 'b', after: 'B' },
        { path: join(dir.path, 'c.ts'), before: undefined, after: 'C' },
      ],
      // Another program writes b.ts after the first comparison, while the temporaries are being written.
      { beforeCommit: async () => writeFileSync(join(dir.path, 'b.ts'), 'someone else') },
    );
    expect(outcome).toEqual({ ok: false, kind: 'changed', changed: [{ path: join(dir.path, 'b.ts'), now: 'modified' }] });
    expect(readFileSync(join(dir.path, 'a.ts'), 'utf8')).toBe('a');
    expect(readFileSync(join(dir.path, 'b.ts'), 'utf8')).toBe('someone else');
    expect(everything(dir.path)).toEqual(['a.ts', 'b.ts']);
  });

  it('holds the write lock of its files: a wrapped writer of the same file waits, one of another file does not', async () => {
    using dir = scratch();
    files(dir.path, { 'a.ts': 'a', 'b.ts': 'b' });
    const order: string[] = [];
    let release!: () => void;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    let written!: () => void;
    const temporaries = new Promise<void>((resolve) => {
      written = resolve;
    });
    const applying = applyFileChanges([{ path: join(dir.path, 'a.ts'), before: 'a', after: 'A' }], {
      beforeCommit: async () => {
        order.push('temporaries written');
        written();
        await held;
      },
    });
    // Not a sleep: on a loaded machine the temporaries may take longer than any fixed delay.
    await temporaries;
    const same = withFileLock([join(dir.path, 'a.ts')], () => order.push('other writer of a.ts'));
    const other = withFileLock([join(dir.path, 'b.ts')], () => order.push('writer of b.ts'));
    await other;
    expect(fileLockBusy(join(dir.path, 'a.ts'))).toBe(true);
    release();
    await Promise.all([applying, same]);
    expect(order).toEqual(['temporaries written', 'writer of b.ts', 'other writer of a.ts']);
    expect(fileLockBusy(join(dir.path, 'a.ts'))).toBe(false);
  });

  it('refuses a file that became a FIFO, without ever opening it', async () => {
    using dir = scratch();
    execFileSync('mkfifo', [join(dir.path, 'x.py')]);
    const outcome = await applyFileChanges([{ path: join(dir.path, 'x.py'), before: 'print(1)\n', after: 'print(2)\n' }]);
    expect(outcome).toEqual({ ok: false, kind: 'changed', changed: [{ path: join(dir.path, 'x.py'), now: 'modified' }] });
    expect(lstatSync(join(dir.path, 'x.py')).isFIFO()).toBe(true);
  });

  it('refuses a socket at a file it changes or creates, for what it is, and leaves it in place', async () => {
    using dir = scratch();
    const server = createServer();
    await new Promise<void>((done) => server.listen(join(dir.path, 's.py'), done));
    try {
      const changed = await applyFileChanges([{ path: join(dir.path, 's.py'), before: 'print(1)\n', after: 'print(2)\n' }]);
      expect(changed).toEqual({ ok: false, kind: 'changed', changed: [{ path: join(dir.path, 's.py'), now: 'modified' }] });
      const created = await applyFileChanges([{ path: join(dir.path, 's.py'), before: undefined, after: 'print(2)\n' }]);
      expect(created).toEqual({ ok: false, kind: 'changed', changed: [{ path: join(dir.path, 's.py'), now: 'present' }] });
      expect(lstatSync(join(dir.path, 's.py')).isSocket()).toBe(true);
    } finally {
      await new Promise((done) => server.close(done));
    }
  });
});
