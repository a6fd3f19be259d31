/** What was read from an {@link OutputBuffer}. */
export interface OutputSlice {
  readonly text: string;
  /** Characters in the slice's range before capping. */
  readonly total: number;
  /** Characters left out of `text` (the oldest ones). */
  readonly cut: number;
}

/**
 * The debuggee's output (stdout and stderr, in arrival order), bounded in memory: the oldest characters go
 * first once `limit` is reached. Positions count every character ever appended, so "since the last answer"
 * stays meaningful after trimming.
 */
export class OutputBuffer {
  #text = '';
  #total = 0;
  readonly #limit: number;

  constructor(limit = 1_000_000) {
    this.#limit = limit;
  }

  /** Every character appended so far. */
  get total(): number {
    return this.#total;
  }

  append(text: string): void {
    if (!text) return;
    // lldb-dap runs the debuggee on a pseudo-terminal, which turns "\n" into "\r\n".
    const normalized = text.replace(/\r\n/g, '\n');
    this.#text += normalized;
    this.#total += normalized.length;
    if (this.#text.length > this.#limit) this.#text = this.#text.slice(this.#text.length - this.#limit);
  }

  /** The newest output since position `from` (0: all), at most `max` characters of it. */
  since(from: number, max: number): OutputSlice {
    const kept = this.#total - this.#text.length;
    const start = Math.max(from, kept) - kept;
    const range = this.#text.slice(start);
    const total = this.#total - Math.max(from, 0);
    const text = range.length > max ? range.slice(range.length - max) : range;
    return { text, total, cut: total - text.length };
  }
}
