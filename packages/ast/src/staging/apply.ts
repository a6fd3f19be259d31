import { randomBytes } from 'node:crypto';
import { readFile, realpath, rename, stat, unlink, writeFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { resolveInside } from '@agent-tools/core';
import type { StagedFile } from './edit-store.js';

/** How applying a staged edit went. */
export type ApplyOutcome =
  | { readonly ok: true; readonly written: readonly string[] }
  /** Files changed since staging: nothing was written. */
  | { readonly ok: false; readonly kind: 'changed'; readonly changed: readonly string[] }
  /** Writing failed: nothing was left changed (every file already replaced was restored). */
  | { readonly ok: false; readonly kind: 'write-failed'; readonly reason: string; readonly restored: readonly string[] };

interface Target {
  readonly staged: StagedFile;
  /** The real path written (a symlink inside the workspace is written through). */
  readonly real: string;
  readonly mode: number;
  temp?: string;
  replaced?: boolean;
}

/**
 * Applies a staged edit all-or-nothing. Every file must still have the exact bytes it had at staging time;
 * otherwise nothing is written and the changed files are named. Each new content is written to a temporary
 * sibling first and then renamed over the file; if any step fails, the files already replaced get their
 * original content back and the temporaries are removed.
 */
export async function applyStaged(cwd: string, files: readonly StagedFile[]): Promise<ApplyOutcome> {
  const targets: Target[] = [];
  const changed: string[] = [];
  for (const staged of files) {
    try {
      const inside = resolveInside(cwd, staged.file, { mustExist: true, kind: 'file' });
      const real = await realpath(inside.absolute);
      const [bytes, info] = await Promise.all([readFile(real), stat(real)]);
      if (!bytes.equals(Buffer.from(staged.original, 'utf8'))) changed.push(staged.file);
      else targets.push({ staged, real, mode: info.mode & 0o7777 });
    } catch {
      changed.push(`${staged.file} (gone or unreadable)`);
    }
  }
  if (changed.length > 0) return { ok: false, kind: 'changed', changed };

  try {
    for (const target of targets) {
      target.temp = join(dirname(target.real), `.${basename(target.real)}.ast-edit-${randomBytes(4).toString('hex')}.tmp`);
      await writeFile(target.temp, target.staged.updated, { mode: target.mode, flag: 'wx' });
    }
    for (const target of targets) {
      await rename(target.temp as string, target.real);
      target.replaced = true;
    }
  } catch (error) {
    const restored = await rollback(targets);
    const reason = error instanceof Error ? error.message : String(error);
    return { ok: false, kind: 'write-failed', reason, restored };
  }
  return { ok: true, written: targets.map((t) => t.real) };
}

async function rollback(targets: readonly Target[]): Promise<string[]> {
  const restored: string[] = [];
  for (const target of targets) {
    if (target.replaced) {
      const temp = `${target.real}.ast-edit-restore-${randomBytes(4).toString('hex')}`;
      try {
        await writeFile(temp, target.staged.original, { mode: target.mode });
        await rename(temp, target.real);
        restored.push(target.staged.file);
      } catch {
        // Last resort: write in place; a file half-restored is still better than one left rewritten.
        await writeFile(target.real, target.staged.original).catch(() => undefined);
        await unlink(temp).catch(() => undefined);
        restored.push(target.staged.file);
      }
    } else if (target.temp) {
      await unlink(target.temp).catch(() => undefined);
    }
  }
  return restored;
}
