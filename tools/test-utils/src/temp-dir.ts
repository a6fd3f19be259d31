import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

/** A temporary directory that removes itself; `await using dir = tempDir()` or call `remove()`. */
export interface TempDir extends Disposable, AsyncDisposable {
  /** The real path of the directory (symlinks in the temp root resolved). */
  readonly path: string;
  /** Writes files relative to the directory, creating folders; returns the directory. */
  write(files: Readonly<Record<string, string>>): TempDir;
  /** Absolute path of a file inside it. */
  join(...parts: string[]): string;
  remove(): void;
}

/** Creates a temporary directory, optionally filled with files. */
export function tempDir(files: Readonly<Record<string, string>> = {}, prefix = 'agent-tools-'): TempDir {
  const path = realpathSync(mkdtempSync(join(tmpdir(), prefix)));
  const dir: TempDir = {
    path,
    write(more) {
      for (const [name, content] of Object.entries(more)) {
        const file = join(path, name);
        mkdirSync(dirname(file), { recursive: true });
        writeFileSync(file, content);
      }
      return dir;
    },
    join: (...parts) => join(path, ...parts),
    remove: () => rmSync(path, { recursive: true, force: true }),
    [Symbol.dispose]: () => dir.remove(),
    [Symbol.asyncDispose]: async () => dir.remove(),
  };
  return dir.write(files);
}
