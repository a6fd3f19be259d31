import { chmodSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { writeFileAtomic } from '../src/index.js';
import { scratch } from './helpers.js';

describe('writeFileAtomic', () => {
  it('replaces a file keeping its mode, creates missing folders, and leaves no temporary', () => {
    using dir = scratch();
    const script = join(dir.path, 'run.sh');
    writeFileSync(script, 'old');
    chmodSync(script, 0o751);
    writeFileAtomic(script, 'new');
    expect(readFileSync(script, 'utf8')).toBe('new');
    expect(statSync(script).mode & 0o777).toBe(0o751);
    const nested = join(dir.path, 'a', 'b', 'c.txt');
    writeFileAtomic(nested, 'deep');
    expect(readFileSync(nested, 'utf8')).toBe('deep');
    expect(readdirSync(dir.path, { recursive: true }).map(String).sort()).toEqual(['a', 'a/b', 'a/b/c.txt', 'run.sh']);
  });

  it('takes an explicit mode over the present one', () => {
    using dir = scratch();
    const file = join(dir.path, 'f.txt');
    writeFileAtomic(file, 'x', 0o600);
    expect(statSync(file).mode & 0o777).toBe(0o600);
  });

  it('removes its temporary and throws when the rename fails, leaving the target as it was', () => {
    using dir = scratch();
    // A folder where the file should be: the temporary is written, the rename over a directory fails.
    const target = join(dir.path, 'taken');
    mkdirSync(target);
    writeFileSync(join(target, 'inside'), 'kept');
    expect(() => writeFileAtomic(target, 'x')).toThrow();
    expect(readdirSync(dir.path)).toEqual(['taken']);
    expect(readFileSync(join(target, 'inside'), 'utf8')).toBe('kept');
  });
});
