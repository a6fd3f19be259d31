import { randomBytes } from 'node:crypto';
import { mkdirSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';

/**
 * The one way agent-tools replaces a file: the new content goes to a temporary sibling (same folder, so the rename
 * never crosses a file system), keeping the file's mode, and a rename puts it in place, so a reader (an editor, a
 * language server, a clangd of another run) sees the old file or the new one, never half of one. applyFileChanges
 * (several files, all or nothing) stages its temporaries with the same name.
 */

/** A fresh temporary name beside `path`: hidden, and named for agent-tools so a leftover is recognisable. */
export function siblingTemp(path: string): string {
  return join(dirname(path), `.${basename(path)}.agent-tools-${randomBytes(4).toString('hex')}.tmp`);
}

/**
 * Writes `content` to `path` atomically (see above): missing folders are created, the file gets `mode` (by default
 * the mode it has now, if it exists), and the temporary is removed when the write fails.
 */
export function writeFileAtomic(path: string, content: string, mode = statSync(path, { throwIfNoEntry: false })?.mode): void {
  mkdirSync(dirname(path), { recursive: true });
  const temp = siblingTemp(path);
  try {
    writeFileSync(temp, content, { flag: 'wx', ...(mode === undefined ? {} : { mode }) });
    renameSync(temp, path);
  } catch (error) {
    rmSync(temp, { force: true });
    throw error;
  }
}
