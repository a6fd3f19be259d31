import { symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fileLockBusy, withFileLock } from '../src/index.js';
import { scratch } from './helpers.js';

const tick = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 5));

describe('withFileLock', () => {
  it('runs writers of one file one after the other, in arrival order; a symlink is the same file', async () => {
    using dir = scratch();
    writeFileSync(join(dir.path, 'real.ts'), '');
    symlinkSync(join(dir.path, 'real.ts'), join(dir.path, 'alias.ts'));
    const log: string[] = [];
    const writer = (name: string, path: string) =>
      withFileLock([join(dir.path, path)], async () => {
        log.push(`${name} in`);
        await tick();
        log.push(`${name} out`);
      });
    await Promise.all([writer('first', 'real.ts'), writer('second', 'alias.ts'), writer('third', 'real.ts')]);
    expect(log).toEqual(['first in', 'first out', 'second in', 'second out', 'third in', 'third out']);
  });

  it('lets writers of different files overlap, and a set of files waits for each of them', async () => {
    using dir = scratch();
    const log: string[] = [];
    const writer = (name: string, paths: string[]) =>
      withFileLock(
        paths.map((p) => join(dir.path, p)),
        async () => {
          log.push(`${name} in`);
          await tick();
          log.push(`${name} out`);
        },
      );
    await Promise.all([writer('a', ['a.ts']), writer('b', ['b.ts']), writer('ab', ['b.ts', 'a.ts'])]);
    expect(log.slice(0, 2).sort()).toEqual(['a in', 'b in']);
    expect(log.slice(-2)).toEqual(['ab in', 'ab out']);
  });

  it('is re-entrant along one chain of calls, only while the outer holding lasts', async () => {
    using dir = scratch();
    const path = join(dir.path, 'a.ts');
    const inner = await withFileLock([path], () => withFileLock([path], async () => 'nested ran'));
    expect(inner).toBe('nested ran');
    // A callback scheduled inside a holding but run after it ended queues like anyone else.
    let later: Promise<string> | undefined;
    await withFileLock([path], async () => {
      setTimeout(() => {
        later = withFileLock([path], async () => 'queued');
      }, 0);
    });
    await tick();
    expect(await later).toBe('queued');
    expect(fileLockBusy(path)).toBe(false);
  });

  it('releases the file when the task throws', async () => {
    using dir = scratch();
    const path = join(dir.path, 'a.ts');
    await expect(withFileLock([path], () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    expect(fileLockBusy(path)).toBe(false);
    expect(await withFileLock([path], () => 'next')).toBe('next');
  });
});
