import { collapseCarriageReturns, stripTerminalCodes } from '@agent-tools/core/internal';

/** What was read from an {@link OutputBuffer}. */
export interface OutputSlice {
  /** The newest part of the range as a terminal shows it (carriage-return redraws collapsed), at most `max` characters. */
  readonly text: string;
  /** Characters in the slice's range, as printed (before collapsing and capping). */
  readonly total: number;
  /** Whether older output of the range is left out of `text` (dropped from memory, collapsed or capped). */
  readonly cut: boolean;
  /** Whether `text` starts in the middle of a line (the line's start was dropped or capped away). */
  readonly partialLine: boolean;
  /** Whether carriage-return redraws were collapsed to their last state. */
  readonly redrawn: boolean;
}

/** A line of one stream that has not ended yet. */
interface OpenLine {
  parts: string[];
  length: number;
  /** The stream's last chunk ended in `\r`: a `\n` at the start of the next one makes it a `\r\n`. */
  pendingReturn: boolean;
}

/** A line longer than this is merged in pieces: a progress bar redrawn with `\r` forever never ends its line. */
const OPEN_LINE_LIMIT = 64 * 1024;
/** Committed text is kept in chunks of about this size, so trimming the oldest never copies the whole buffer. */
const CHUNK_TARGET = 8 * 1024;

/**
 * The debuggee's output (stdout and stderr, in arrival order), bounded in memory: the oldest characters go
 * first once `limit` is reached. Positions count every character ever appended, so "since the last answer"
 * stays meaningful after trimming. Each stream is merged a whole line at a time: Python's `print` writes its
 * pieces separately, and a stderr line must not land in the middle of a stdout one.
 *
 * Appending is linear in the bytes appended, whatever the line endings: nothing already stored is copied or
 * searched again (32 MB of `\r` progress without a newline used to cost the harness tens of CPU seconds).
 */
export class OutputBuffer {
  readonly #chunks: string[] = [];
  /** Index of the oldest kept chunk, and how many of its characters were already dropped. */
  #first = 0;
  #offset = 0;
  /** Characters kept, and characters ever committed. */
  #stored = 0;
  #total = 0;
  /** The newest character dropped from memory, so a read can tell whether what is kept starts a line. */
  #droppedLast = '\n';
  readonly #open = new Map<string, OpenLine>();
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
    let line = this.#open.get(stream);
    if (!line) {
      line = { parts: [], length: 0, pendingReturn: false };
      this.#open.set(stream, line);
    }
    // lldb-dap runs the debuggee on a pseudo-terminal, which turns "\n" into "\r\n"; a chunk may split the pair.
    let chunk = text;
    if (line.pendingReturn && chunk.startsWith('\n')) this.#dropPendingReturn(line);
    line.pendingReturn = chunk.endsWith('\r');
    if (chunk.includes('\r\n')) chunk = chunk.replace(/\r\n/g, '\n');
    const end = chunk.lastIndexOf('\n') + 1;
    if (end > 0) {
      line.parts.push(chunk.slice(0, end));
      this.#commit(line.parts.join(''));
      line.parts = [];
      line.length = 0;
      chunk = chunk.slice(end);
    }
    if (!chunk) return;
    line.parts.push(chunk);
    line.length += chunk.length;
    if (line.length > OPEN_LINE_LIMIT) this.#commitOpen(line);
  }

  /** The newest output since position `from` (0: all), at most `max` characters of it as a terminal shows it. */
  since(from: number, max: number): OutputSlice {
    this.#flush();
    const kept = this.#total - this.#stored;
    const start = Math.max(from, kept);
    const total = this.#total - Math.max(from, 0);
    let raw = this.#text(this.#total - start);
    // Output from `from` on continues what an earlier answer showed; only a start dropped from memory cuts a line.
    let partialLine = start > from && this.#droppedLast !== '\n';
    const firstReturn = raw.indexOf('\r');
    if (partialLine && firstReturn >= 0 && firstReturn < (raw.indexOf('\n') + 1 || raw.length + 1)) {
      // The cut line is being redrawn: from its first kept `\r` on, it reads as the terminal shows it.
      raw = raw.slice(firstReturn);
      partialLine = false;
    }
    const plain = stripTerminalCodes(raw);
    const shown = collapseCarriageReturns(plain);
    const capped = shown.length > max;
    const text = capped ? shown.slice(shown.length - max) : shown;
    if (capped) partialLine = shown.charAt(shown.length - max - 1) !== '\n';
    return { text, total, cut: from < kept || text.length < plain.length, partialLine: partialLine && text.length > 0, redrawn: shown.length < plain.length };
  }

  /** The newest `count` stored characters, joined once. */
  #text(count: number): string {
    const parts: string[] = [];
    let need = count;
    for (let i = this.#chunks.length - 1; i >= this.#first && need > 0; i--) {
      const chunk = this.#chunks[i] as string;
      const usable = i === this.#first ? chunk.slice(this.#offset) : chunk;
      parts.push(usable.length > need ? usable.slice(usable.length - need) : usable);
      need -= usable.length;
    }
    return parts.reverse().join('');
  }

  #dropPendingReturn(line: OpenLine): void {
    const last = line.parts.at(-1);
    if (last?.endsWith('\r')) {
      line.parts[line.parts.length - 1] = last.slice(0, -1);
      line.length--;
      return;
    }
    // The "\r" was already committed (the line was read meanwhile): the pair still reads as one line end.
  }

  #commitOpen(line: OpenLine): void {
    if (line.length === 0) return;
    this.#commit(line.parts.join(''));
    line.parts = [];
    line.length = 0;
  }

  #flush(): void {
    for (const line of this.#open.values()) this.#commitOpen(line);
  }

  #commit(whole: string): void {
    if (!whole) return;
    // Only the newest `limit` characters of one huge write can ever be read back.
    const text = whole.length > this.#limit ? whole.slice(whole.length - this.#limit) : whole;
    if (text !== whole) this.#droppedLast = whole.charAt(whole.length - text.length - 1);
    this.#total += whole.length - text.length;
    const lastIndex = this.#chunks.length - 1;
    const last = lastIndex >= this.#first ? this.#chunks[lastIndex] : undefined;
    if (last !== undefined && last.length < CHUNK_TARGET) this.#chunks[lastIndex] = last + text;
    else this.#chunks.push(text);
    this.#stored += text.length;
    this.#total += text.length;
    this.#trim();
  }

  /** Drops the oldest characters beyond the limit: whole chunks, then an offset into the oldest one. */
  #trim(): void {
    while (this.#stored > this.#limit) {
      const oldest = this.#chunks[this.#first] as string;
      const left = oldest.length - this.#offset;
      const excess = this.#stored - this.#limit;
      if (excess >= left && this.#first < this.#chunks.length - 1) {
        this.#stored -= left;
        this.#droppedLast = oldest.charAt(oldest.length - 1);
        this.#first++;
        this.#offset = 0;
      } else {
        const drop = Math.min(excess, left);
        this.#droppedLast = oldest.charAt(this.#offset + drop - 1);
        this.#offset += drop;
        this.#stored -= drop;
      }
    }
    // Forget dropped chunks now and then, so the array does not grow with everything ever printed.
    if (this.#first > 1024 && this.#first * 2 > this.#chunks.length) {
      this.#chunks.splice(0, this.#first);
      this.#first = 0;
    }
  }
}
