import { statSync } from 'node:fs';
import { readRegularFileSync } from '@agent-tools/core';
import { isInside } from '../util/paths.js';
import { splitLines } from '../util/text.js';

const MAX_FILE_BYTES = 4 * 1024 * 1024;

/**
 * Reads the text of result lines, each file once per call. Only files inside the working directory are read:
 * a location in a library outside it is shown without its text. Documents the server has open are read from
 * what it was sent, so the text matches the positions.
 */
export class LineReader {
  readonly #cwd: string;
  readonly #open: (path: string) => string | undefined;
  readonly #cache = new Map<string, string[] | undefined>();

  constructor(cwd: string, openText: (path: string) => string | undefined = () => undefined) {
    this.#cwd = cwd;
    this.#open = openText;
  }

  /** The 0-based line of a file, or undefined when it cannot or must not be read. */
  line(path: string, line: number): string | undefined {
    return this.lines(path)?.[line];
  }

  /**
   * The 0-based line of a file a server's answer points to, inside the working directory or not (a library's
   * declaration): the model cannot read such a file with its own tools, so the line is shown to it here.
   */
  locationLine(path: string, line: number): string | undefined {
    return this.lines(path, true)?.[line];
  }

  /** All lines of a file, or undefined; files outside the working directory only with `outside`. */
  lines(path: string, outside = false): string[] | undefined {
    if (this.#cache.has(path)) return this.#cache.get(path);
    let lines: string[] | undefined;
    if (outside || isInside(this.#cwd, path)) {
      const open = this.#open(path);
      if (open !== undefined) lines = splitLines(open);
      else {
        try {
          if (statSync(path).size <= MAX_FILE_BYTES) lines = splitLines(readRegularFileSync(path).toString('utf8'));
        } catch {
          // A file-system error or not_regular_file: the line is not shown.
          lines = undefined;
        }
      }
    }
    this.#cache.set(path, lines);
    return lines;
  }
}
