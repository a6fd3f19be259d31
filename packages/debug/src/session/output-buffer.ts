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
 * stays meaningful after trimming. Each stream is merged a whole line at a time: Python's `print` writes its
 * pieces separately, and a stderr line must not land in the middle of a stdout one.
 */
export class OutputBuffer {
  #text = '';
  #total = 0;
  readonly #partial = new Map<string, string>();
  readonly #limit: number;

  constructor(limit = 1_000_000) {
    this.#limit = limit;
  }

  /** Every character appended so far (a line still being written counts once it is read). */
  get total(): number {
    this.#flush();
    return this.#total;
  }

  /** Appends output of one stream; complete lines are merged now, a partial one when the line ends or on read. */
  append(text: string, stream = 'stdout'): void {
    if (!text) return;
    // lldb-dap runs the debuggee on a pseudo-terminal, which turns "\n" into "\r\n".
    const joined = (this.#partial.get(stream) ?? '') + text.replace(/\r\n/g, '\n');
    const end = joined.lastIndexOf('\n') + 1;
    this.#partial.set(stream, joined.slice(end));
    this.#add(joined.slice(0, end));
  }

  #flush(): void {
    for (const [stream, rest] of this.#partial) {
      if (!rest) continue;
      this.#partial.set(stream, '');
      this.#add(rest);
    }
  }

  #add(normalized: string): void {
    if (!normalized) return;
    this.#text += normalized;
    this.#total += normalized.length;
    if (this.#text.length > this.#limit) this.#text = this.#text.slice(this.#text.length - this.#limit);
  }

  /** The newest output since position `from` (0: all), at most `max` characters of it. */
  since(from: number, max: number): OutputSlice {
    this.#flush();
    const kept = this.#total - this.#text.length;
    const start = Math.max(from, kept) - kept;
    const range = this.#text.slice(start);
    const total = this.#total - Math.max(from, 0);
    const text = range.length > max ? range.slice(range.length - max) : range;
    return { text, total, cut: total - text.length };
  }
}
