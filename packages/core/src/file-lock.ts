import { AsyncLocalStorage } from 'node:async_hooks';
import { realpathSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';

/** One holding of a set of paths; re-entry is allowed only while it is still held. */
interface Holding {
  readonly paths: ReadonlySet<string>;
  held: boolean;
}

const tails = new Map<string, Promise<void>>();
const holdings = new AsyncLocalStorage<readonly Holding[]>();

/**
 * Runs `task` while it alone may write `paths` in this process: every tool that writes files (resolve, lsp_rename,
 * lsp_fix, a harness's write and edit wrapped by `wrapWrite`) goes through here, so two writers of one file never
 * interleave, whichever tool, conversation or run they come from. The lock is per file and process-wide because
 * the file is: two runs (two MCP sessions on one folder) race on it as much as two conversations do.
 *
 * Paths are compared by their real path, so a symlink and its target are one file. Several paths are taken in a
 * fixed order, so two writers of overlapping sets cannot deadlock. A task may take paths its own caller already
 * holds (a wrapped edit whose tool applies its change through `applyFileChanges`): the lock is re-entrant along
 * one chain of calls, and only while the outer holding lasts.
 */
export async function withFileLock<T>(paths: readonly string[], task: () => Promise<T> | T): Promise<T> {
  const outer = (holdings.getStore() ?? []).filter((h) => h.held);
  const wanted = [...new Set(paths.map(canonicalPath))].filter((path) => !outer.some((h) => h.paths.has(path))).sort();
  if (wanted.length === 0) return task();

  const previous = wanted.map((path) => tails.get(path) ?? Promise.resolve());
  let release = (): void => undefined;
  const mine = new Promise<void>((done) => {
    release = done;
  });
  for (const path of wanted) tails.set(path, mine);
  await Promise.all(previous);
  const holding: Holding = { paths: new Set(wanted), held: true };
  try {
    return await holdings.run([...outer, holding], task);
  } finally {
    holding.held = false;
    for (const path of wanted) if (tails.get(path) === mine) tails.delete(path);
    release();
  }
}

/** Whether some writer holds or waits for `path` (for tests and diagnostics). */
export function fileLockBusy(path: string): boolean {
  return tails.has(canonicalPath(path));
}

/** The real path of a file, or of its nearest existing folder joined with the rest for a file not made yet. */
function canonicalPath(path: string): string {
  const absolute = resolve(path);
  const missing: string[] = [];
  for (let current = absolute; ; current = dirname(current)) {
    try {
      return join(realpathSync(current), ...missing);
    } catch {
      if (dirname(current) === current) return absolute;
      missing.unshift(basename(current));
    }
  }
}
