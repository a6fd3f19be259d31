import { statSync } from 'node:fs';
import { join } from 'node:path';
import { isAgentToolsError, resolveInside } from '@agent-tools/core';
import { applyFileChanges, type FileChangesOptions, specialFileKind } from '@agent-tools/core/internal';
import type { StagedFile } from './edit-store.js';

/** How applying a staged edit went; files are named workspace-relative. */
export type ApplyOutcome =
  | { readonly ok: true }
  /** Files changed since staging: nothing was written. */
  | { readonly ok: false; readonly kind: 'changed'; readonly changed: readonly string[] }
  /** Writing failed: the files already replaced were restored. */
  | { readonly ok: false; readonly kind: 'write-failed'; readonly reason: string; readonly restored: readonly string[] };

/**
 * Applies a staged edit all-or-nothing with core's `applyFileChanges`: every file must still have the exact bytes
 * it had at staging time, or nothing is written and the changed files are named. Paths are checked against the
 * working directory again, because a symlink may have been pointed elsewhere since the edit was staged.
 */
export async function applyStaged(cwd: string, files: readonly StagedFile[], options?: FileChangesOptions): Promise<ApplyOutcome> {
  const gone: string[] = [];
  const changes = [];
  const byPath = new Map<string, string>();
  for (const staged of files) {
    try {
      const inside = resolveInside(cwd, staged.file, { mustExist: true, kind: 'file' });
      changes.push({ path: inside.absolute, before: staged.original, after: staged.updated });
      byPath.set(inside.absolute, staged.file);
    } catch (error) {
      gone.push(`${staged.file} (${whatItIsNow(cwd, staged.file, error)})`);
    }
  }
  if (gone.length > 0) return { ok: false, kind: 'changed', changed: gone };

  const outcome = await applyFileChanges(changes, options);
  const name = (path: string): string => byPath.get(path) ?? path;
  if (outcome.ok) return outcome;
  if (outcome.kind === 'changed') {
    return { ok: false, kind: 'changed', changed: outcome.changed.map((c) => (c.now === 'modified' ? name(c.path) : `${name(c.path)} (gone)`)) };
  }
  return { ok: false, kind: 'write-failed', reason: outcome.reason, restored: outcome.restored.map(name) };
}

/** Why a staged file can no longer be written, in words: a FIFO is not "gone", and the model should know it is not. */
function whatItIsNow(cwd: string, file: string, error: unknown): string {
  if (isAgentToolsError(error, 'core', 'not_regular_file') || isAgentToolsError(error, 'core', 'invalid_path')) {
    const stats = statSync(join(cwd, file), { throwIfNoEntry: false });
    const kind = stats ? (stats.isDirectory() ? 'a directory' : specialFileKind(stats)) : undefined;
    if (kind) return `now ${kind}, not a regular file`;
  }
  return 'gone, or no longer inside the working directory';
}
