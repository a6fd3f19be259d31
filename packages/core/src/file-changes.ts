import { mkdir, realpath, rename, rmdir, stat, unlink, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { siblingTemp, writeFileAtomic } from './atomic-write.js';
import { errorDetail, isAgentToolsError } from './errors.js';
import { withFileLock } from './file-lock.js';
import { readRegularFile, specialFileKind } from './regular-file.js';

/** One file's part of a multi-file change. */
export interface FileChange {
  /** Absolute path, already resolved inside the working directory. A symlink is written through. */
  readonly path: string;
  /** The content the file must still have; `undefined` when it must not exist yet. */
  readonly before: string | undefined;
  /** The new content; `undefined` deletes the file. */
  readonly after: string | undefined;
}

/** A file whose disk state no longer matches the change's `before`. */
export interface ChangedFile {
  readonly path: string;
  readonly now: 'modified' | 'missing' | 'present';
}

/** How a multi-file change went. */
export type FileChangesOutcome =
  /** Every file was written or deleted. */
  | { readonly ok: true }
  /** Some files differ from what the change expected: nothing was written. */
  | { readonly ok: false; readonly kind: 'changed'; readonly changed: readonly ChangedFile[] }
  /**
   * A write failed. The files already replaced were put back (`restored`); `notRestored` names any that could
   * not be, which should be empty unless the disk itself is failing.
   */
  | {
      readonly ok: false;
      readonly kind: 'failed';
      readonly reason: string;
      readonly restored: readonly string[];
      readonly notRestored: readonly string[];
    };

/** Hooks for fault injection in tests. */
export interface FileChangesOptions {
  readonly rename?: (from: string, to: string) => Promise<void>;
  /** Runs after the temporaries are written and before the first rename. */
  readonly beforeCommit?: () => Promise<void>;
}

interface Step {
  readonly change: FileChange;
  /** The path written: the real path of an existing file, so a symlink inside the workspace stays a link. */
  readonly target: string;
  readonly mode: number | undefined;
  temp?: string;
  done?: boolean;
}

/**
 * Applies changes to several files all or nothing, holding every file's write lock ({@link withFileLock}) so no
 * other writer of the process interleaves. Every file is first compared, byte for byte, with the content the
 * change expects; any difference writes nothing. Then every new content goes to a temporary sibling (file mode
 * kept, missing folders created), and each file is compared once more immediately before its temporary is renamed
 * over it: a file another program changed while the temporaries were written refuses the whole change, and the
 * files already replaced are put back. If any step fails, what was already done is undone from the contents held
 * in memory and the temporaries are removed.
 */
export function applyFileChanges(changes: readonly FileChange[], options: FileChangesOptions = {}): Promise<FileChangesOutcome> {
  return withFileLock(
    changes.map((change) => change.path),
    () => applyLocked(changes, options),
  );
}

async function applyLocked(changes: readonly FileChange[], options: FileChangesOptions): Promise<FileChangesOutcome> {
  const steps: Step[] = [];
  const changed: ChangedFile[] = [];
  for (const change of changes) {
    const found = await current(change.path);
    const now = difference(change, found);
    if (now) changed.push({ path: change.path, now });
    else steps.push({ change, target: found?.real ?? change.path, mode: found?.mode });
  }
  if (changed.length > 0) return { ok: false, kind: 'changed', changed };

  const move = options.rename ?? rename;
  const createdDirs: string[] = [];
  let late: ChangedFile | undefined;
  try {
    for (const step of steps) {
      if (step.change.after === undefined) continue;
      createdDirs.push(...(await makeParents(step.target)));
      step.temp = siblingTemp(step.target);
      await writeFile(step.temp, step.change.after, { flag: 'wx', ...(step.mode === undefined ? {} : { mode: step.mode }) });
    }
    await options.beforeCommit?.();
    for (const step of steps) {
      const now = difference(step.change, await current(step.change.path));
      if (now) {
        late = { path: step.change.path, now };
        break;
      }
      if (step.temp) await move(step.temp, step.target);
      else await unlink(step.target);
      step.temp = undefined;
      step.done = true;
    }
  } catch (error) {
    const { restored, notRestored } = await undo(steps, createdDirs);
    // A file-system error (Node's, with its code: ENOSPC, EACCES, EIO) is the change's failure, answered. Anything else
    // is a bug: thrown once the files are back, so it reaches the harness's onError instead of reading as a disk's fault.
    if (!isFileSystemError(error)) throw error;
    return { ok: false, kind: 'failed', reason: errorDetail(error), restored, notRestored };
  }
  if (!late) return { ok: true };
  const { restored, notRestored } = await undo(steps, createdDirs);
  if (notRestored.length === 0) return { ok: false, kind: 'changed', changed: [late] };
  return { ok: false, kind: 'failed', reason: `${late.path} changed while the change was applied`, restored, notRestored };
}

/** How a file's disk state differs from what the change expects of it, if it does. */
function difference(change: FileChange, found: Found | undefined): ChangedFile['now'] | undefined {
  if (change.before === undefined) return found ? 'present' : undefined;
  if (!found) return 'missing';
  return found.bytes?.equals(Buffer.from(change.before, 'utf8')) ? undefined : 'modified';
}

interface Found {
  readonly real: string;
  /** Undefined for a special file (a FIFO, a socket, a device), which is never opened. */
  readonly bytes: Buffer | undefined;
  readonly mode: number | undefined;
}

/** The file's present state; a special file (a FIFO, a socket) is never opened and reads as an unexpected one. */
async function current(path: string): Promise<Found | undefined> {
  let real: string;
  try {
    real = await realpath(path);
  } catch {
    // realpath raises only file-system errors: the file does not exist (yet).
    return undefined;
  }
  try {
    const { bytes, mode } = await readRegularFile(real);
    return { real, bytes, mode };
  } catch (error) {
    if (isAgentToolsError(error, 'core', 'not_regular_file')) return { real, bytes: undefined, mode: undefined };
    // A socket cannot even be opened (ENXIO): it is there all the same, and must not be taken for a missing file.
    const stats = await stat(real).catch(() => undefined);
    return stats && specialFileKind(stats) ? { real, bytes: undefined, mode: undefined } : undefined;
  }
}

/** Creates the missing folders above `path` and returns them, outermost first. */
async function makeParents(path: string): Promise<string[]> {
  const missing: string[] = [];
  for (let dir = dirname(path); ; dir = dirname(dir)) {
    const exists = await stat(dir).then(
      () => true,
      () => false,
    );
    if (exists || dirname(dir) === dir) break;
    missing.unshift(dir);
  }
  const deepest = missing[missing.length - 1];
  if (deepest) await mkdir(deepest, { recursive: true });
  return missing;
}

async function undo(steps: readonly Step[], createdDirs: readonly string[]): Promise<{ restored: string[]; notRestored: string[] }> {
  const restored: string[] = [];
  const notRestored: string[] = [];
  for (const step of steps) {
    // Best effort on our own temporary files: unlink raises only file-system errors, and a stray one is no wrong change.
    if (step.temp) await unlink(step.temp).catch(() => undefined);
  }
  for (const step of [...steps].reverse()) {
    if (!step.done) continue;
    try {
      const before = step.change.before;
      if (before === undefined) {
        await unlink(step.target);
      } else {
        writeFileAtomic(step.target, before, step.mode);
      }
      restored.unshift(step.change.path);
    } catch {
      // A file-system error while restoring: the file is listed as not restored, which the answer says.
      notRestored.unshift(step.change.path);
    }
  }
  // A directory we created that is not empty (or gone) stays: rmdir raises only file-system errors.
  for (const dir of [...createdDirs].reverse()) await rmdir(dir).catch(() => undefined);
  return { restored, notRestored };
}

/** Whether an error is one the file system raised (Node's system errors carry an `E…` code). */
function isFileSystemError(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  return error instanceof Error && typeof code === 'string' && /^E[A-Z]+$/.test(code);
}
