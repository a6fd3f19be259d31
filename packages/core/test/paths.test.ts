import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CoreError, resolveInside } from '../src/index.js';
import { scratch } from './helpers.js';

function refused(fn: () => unknown): CoreError {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(CoreError);
    return error as CoreError;
  }
  throw new Error('expected a refusal');
}

describe('path containment', () => {
  it('resolves relative and inside-absolute paths with a workspace-relative form', () => {
    using dir = scratch();
    mkdirSync(join(dir.path, 'src'));
    writeFileSync(join(dir.path, 'src/a.ts'), '');
    expect(resolveInside(dir.path, 'src/a.ts')).toEqual({ absolute: join(dir.path, 'src/a.ts'), relative: 'src/a.ts', exists: true });
    expect(resolveInside(dir.path, join(dir.path, 'src/./a.ts')).relative).toBe('src/a.ts');
    expect(resolveInside(dir.path, '.').relative).toBe('.');
    expect(resolveInside(dir.path, 'src/new/b.ts')).toMatchObject({ relative: 'src/new/b.ts', exists: false });
  });

  it('refuses .. escapes and absolute paths elsewhere, naming the working directory', () => {
    using dir = scratch();
    const up = refused(() => resolveInside(dir.path, '../x'));
    expect(up.code).toBe('outside_workspace');
    expect(up.message).toBe(
      `[agent-tools/core] The path "../x" is outside the working directory ${dir.path}. Tools only read and write inside it; pass a path relative to it.`,
    );
    expect(refused(() => resolveInside(dir.path, 'src/../../x')).code).toBe('outside_workspace');
    expect(refused(() => resolveInside(dir.path, '/etc/passwd')).code).toBe('outside_workspace');
    expect(refused(() => resolveInside(join(dir.path, 'sub'), join(dir.path, 'sub-other/a'))).code).toBe('outside_workspace');
  });

  it('refuses symlinks that lead out: a linked file, a linked folder, and a file to be created through one', () => {
    using dir = scratch();
    using outside = scratch();
    writeFileSync(join(outside.path, 'secret'), 'x');
    symlinkSync(join(outside.path, 'secret'), join(dir.path, 'link-file'));
    symlinkSync(outside.path, join(dir.path, 'link-dir'));
    for (const path of ['link-file', 'link-dir', 'link-dir/secret', 'link-dir/new/file.ts']) {
      const error = refused(() => resolveInside(dir.path, path));
      expect(error.code).toBe('outside_workspace');
      expect(error.message).toContain('through a symbolic link');
    }
  });

  it('follows a dangling symlink to where a write would land', () => {
    using dir = scratch();
    using outside = scratch();
    symlinkSync(join(outside.path, 'not-yet'), join(dir.path, 'dangling'));
    expect(refused(() => resolveInside(dir.path, 'dangling')).code).toBe('outside_workspace');
    symlinkSync(join(dir.path, 'inside-target'), join(dir.path, 'dangling-in'));
    expect(resolveInside(dir.path, 'dangling-in').exists).toBe(false);
  });

  it('accepts symlinks that stay inside', () => {
    using dir = scratch();
    mkdirSync(join(dir.path, 'real'));
    writeFileSync(join(dir.path, 'real/a.ts'), '');
    symlinkSync(join(dir.path, 'real'), join(dir.path, 'alias'));
    expect(resolveInside(dir.path, 'alias/a.ts')).toMatchObject({ relative: 'alias/a.ts', exists: true });
  });

  it('checks existence and kind when asked', () => {
    using dir = scratch();
    mkdirSync(join(dir.path, 'src'));
    expect(refused(() => resolveInside(dir.path, 'missing.ts', { mustExist: true })).message).toContain(
      'There is no file or directory "missing.ts"',
    );
    expect(refused(() => resolveInside(dir.path, 'src', { kind: 'file' })).message).toContain('"src" is a directory; pass a file.');
    expect(refused(() => resolveInside(dir.path, '', {})).code).toBe('invalid_path');
    writeFileSync(join(dir.path, 'src/a.ts'), '');
    expect(refused(() => resolveInside(dir.path, 'src/a.ts/b/c.ts')).message).toBe(
      '[agent-tools/core] "src/a.ts" is a file, so "src/a.ts/b/c.ts" cannot exist below it; check the path.',
    );
    expect(refused(() => resolveInside(dir.path, 'a\0b')).code).toBe('invalid_path');
  });
});
