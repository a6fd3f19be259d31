import { AsyncLocalStorage } from 'node:async_hooks';
import { realpathSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { CoreError } from './errors.js';

/** One holding of a set of paths, from the moment it waits for them; re-entry is allowed only while it is held. */
interface Holding {
  readonly paths: ReadonlySet<string>;
  held: boolean;
  /** While it waits: the holdings of its paths that came before it. */
  waitsFor: readonly Holding[];
  /** The holdings of its own chain of calls it was taken inside; they cannot end before it does. */
  readonly outer: readonly Holding[];
  readonly done: Promise<void>;
}

const tails = new Map<string, Holding>();
/** The holdings still waiting for their paths. */
const waiting = new Set<Holding>();
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
 * one chain of calls, and only while the outer holding lasts. A task that takes *new* paths while holding others
 * could wait for a writer that waits for it (a holds x and wants y, b holds y and wants x): such a request is
 * refused with a `file_lock_cycle` error instead of waiting forever.
 */
export async function withFileLock<T>(paths: readonly string[], task: () => Promise<T> | T): Promise<T> {
  const outer = (holdings.getStore() ?? []).filter((h) => h.held);
  const wanted = [...new Set(paths.map(canonicalPath))].filter((path) => !outer.some((h) => h.paths.has(path))).sort();
  if (wanted.length === 0) return task();

  const previous = [...new Set(wanted.flatMap((path) => tails.get(path) ?? []))];
  if (outer.length > 0 && reachesAny(previous, new Set(outer))) throw lockCycle(wanted, outer);
  let release = (): void => undefined;
  const done = new Promise<void>((resolve) => {
    release = resolve;
  });
  const holding: Holding = { paths: new Set(wanted), held: false, waitsFor: previous, outer, done };
  for (const path of wanted) tails.set(path, holding);
  waiting.add(holding);
  try {
    await Promise.all(previous.map((h) => h.done));
  } finally {
    waiting.delete(holding);
  }
  holding.held = true;
  holding.waitsFor = [];
  try {
    return await holdings.run([...outer, holding], task);
  } finally {
    holding.held = false;
    for (const path of wanted) if (tails.get(path) === holding) tails.delete(path);
    release();
  }
}

/**
 * Whether waiting for `from` could mean waiting for one of `targets`: a waiting holding waits for those before it,
 * and a holding whose task has a nested request still waiting cannot end before that request is served.
 */
function reachesAny(from: readonly Holding[], targets: ReadonlySet<Holding>): boolean {
  const seen = new Set<Holding>();
  const stack = [...from];
  for (let h = stack.pop(); h !== undefined; h = stack.pop()) {
    if (targets.has(h)) return true;
    if (seen.has(h)) continue;
    seen.add(h);
    stack.push(...h.waitsFor);
    for (const nested of waiting) if (nested.outer.includes(h)) stack.push(nested);
  }
  return false;
}

function lockCycle(wanted: readonly string[], outer: readonly Holding[]): CoreError {
  const held = outer.flatMap((h) => [...h.paths]);
  return new CoreError(
    'file_lock_cycle',
    `Writing ${wanted.join(', ')} would wait forever: another call holds it and is waiting for ${held.join(', ')}, which this call holds. This call stopped without writing ${wanted.length === 1 ? 'it' : 'them'}; call it again once the other call has answered.`,
  );
}

/**
 * Resolves once no writer of this process holds or waits for any file, writers that came meanwhile included. A run
 * that ends awaits it before the process exits, so a change to several files is never left half made.
 */
export async function fileWritesSettled(): Promise<void> {
  for (let pending = [...new Set(tails.values())]; pending.length > 0; pending = [...new Set(tails.values())]) {
    await Promise.all(pending.map((holding) => holding.done));
  }
}

/**
 * Runs `start` outside every file-lock holding of the calling chain. A long-lived resource (a language server
 * started by the diagnostics check of a wrapped write) keeps the async context it was created in for all its later
 * callbacks; created inside a holding, a server-sent edit would later be taken as part of that write and skip the
 * lock. Resources that outlive the call that starts them are created through here.
 */
export function outsideFileLocks<T>(start: () => T): T {
  return holdings.exit(start);
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
      // realpath raises only file-system errors (ENOENT for a part not created yet): resolve the parent.
      if (dirname(current) === current) return absolute;
      missing.unshift(basename(current));
    }
  }
}
