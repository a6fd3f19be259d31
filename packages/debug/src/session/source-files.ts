import { statSync } from 'node:fs';
import { readRegularFileSync } from '@agent-tools/core';

interface Cached {
  readonly mtimeMs: number;
  readonly size: number;
  readonly lines: readonly string[];
}

/**
 * The source files a session shows lines of, read once and kept while they are unchanged on disk: a step
 * answer needs five lines of the same file again and again, and a large file is not read and split each time.
 */
export class SourceFiles {
  readonly #files = new Map<string, Cached>();

  /** The lines of a file (without line ends), or `undefined` when it cannot be read. */
  lines(path: string): readonly string[] | undefined {
    let stat: { mtimeMs: number; size: number };
    try {
      stat = statSync(path);
    } catch {
      // stat raises only file-system errors: the file is gone.
      this.#files.delete(path);
      return undefined;
    }
    const cached = this.#files.get(path);
    if (cached && cached.mtimeMs === stat.mtimeMs && cached.size === stat.size) return cached.lines;
    try {
      const lines = readRegularFileSync(path).toString('utf8').split('\n');
      this.#files.set(path, { mtimeMs: stat.mtimeMs, size: stat.size, lines });
      return lines;
    } catch {
      // A file-system error or not_regular_file: no source to show.
      return undefined;
    }
  }
}
