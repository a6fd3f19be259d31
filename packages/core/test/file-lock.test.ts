import { symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fileLockBusy, outsideFileLocks } from '../src/file-lock.js';
import { isAgentToolsError, withFileLock } from '../src/index.js';
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

  it('a nested lock that would close a cycle is refused instead of waiting forever; the others go on', async () => {
    using dir = scratch();
    const path = (name: string): string => join(dir.path, name);
    // Each writer holds its first file, then (nested, inside its task) wants the next one's: a → b → c → a.
    const log: string[] = [];
    const writer = (mine: string, next: string) =>
      withFileLock([path(mine)], async () => {
        await tick();
        return withFileLock([path(next)], async () => {
          log.push(`${mine} then ${next}`);
          return 'done';
        });
      }).catch((error: unknown) => (isAgentToolsError(error, 'core', 'file_lock_cycle') ? (error as Error).message : Promise.reject(error)));
    const outcomes = await Promise.all([writer('a.ts', 'b.ts'), writer('b.ts', 'c.ts'), writer('c.ts', 'a.ts')]);
    const refused = outcomes.filter((o) => o !== 'done');
    expect(refused).toHaveLength(1);
    expect(refused[0]).toContain('would wait forever');
    expect(log).toHaveLength(2);
    for (const name of ['a.ts', 'b.ts', 'c.ts']) expect(fileLockBusy(path(name))).toBe(false);
  });

  it('a nested lock of a file another writer holds without a cycle waits for it', async () => {
    using dir = scratch();
    const log: string[] = [];
    const outer = withFileLock([join(dir.path, 'a.ts')], async () => {
      await tick();
      await withFileLock([join(dir.path, 'b.ts')], () => log.push('outer got b.ts'));
    });
    const other = withFileLock([join(dir.path, 'b.ts')], async () => {
      await tick();
      await tick();
      log.push('other done with b.ts');
    });
    await Promise.all([outer, other]);
    expect(log).toEqual(['other done with b.ts', 'outer got b.ts']);
  });
});

describe('outsideFileLocks', () => {
  it('a resource started inside a holding does not carry it into its later callbacks', async () => {
    using dir = scratch();
    const path = join(dir.path, 'a.ts');
    const log: string[] = [];
    const later = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
    let inherited: Promise<void> | undefined;
    let detached: Promise<void> | undefined;
    await withFileLock([path], async () => {
      // Timers started now keep the context they were made in, as a language server's stream handlers do.
      inherited = later(20).then(() => withFileLock([path], async () => void log.push('inherited ran')));
      detached = outsideFileLocks(() => later(20).then(() => withFileLock([path], async () => void log.push('detached ran'))));
      await later(80);
      log.push('holder done');
    });
    await Promise.all([inherited, detached]);
    // The inherited callback took the holder's file as its own (the hole); the detached one waited for it.
    expect(log).toEqual(['inherited ran', 'holder done', 'detached ran']);
  });
});
