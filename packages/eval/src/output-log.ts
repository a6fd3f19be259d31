import type { CellOutput } from './jupyter/kernel-session.js';

/** How much of a cell's output is kept in memory while it runs. */
export const KEEP = Object.freeze({
  /** Characters of one run of a stream: 16 000 from its start and the rest from its end. */
  stream: 64_000,
  streamHead: 16_000,
  /** display_data and execute_result outputs. */
  displays: 100,
});

/**
 * One run of a stream while it grows: its first characters, a window of its newest ones, and a count of those
 * dropped between them. Appending copies only the new text, so a cell printing megabytes a second costs time
 * in proportion to what it prints, not to what is kept.
 */
class StreamRun {
  readonly name: 'stdout' | 'stderr';
  head = '';
  readonly #tail: string[] = [];
  #tailLength = 0;
  cut: number;

  constructor(name: 'stdout' | 'stderr', cut = 0) {
    this.name = name;
    this.cut = cut;
  }

  append(text: string): void {
    let rest = text;
    if (this.head.length < KEEP.streamHead && this.cut === 0 && this.#tailLength === 0) {
      const room = KEEP.streamHead - this.head.length;
      this.head += rest.slice(0, room);
      rest = rest.slice(room);
    }
    if (!rest) return;
    this.#tail.push(rest);
    this.#tailLength += rest.length;
    const keep = KEEP.stream - KEEP.streamHead;
    while (this.#tailLength > keep) {
      const oldest = this.#tail[0] as string;
      const excess = this.#tailLength - keep;
      if (oldest.length <= excess) {
        this.#tail.shift();
        this.#tailLength -= oldest.length;
        this.cut += oldest.length;
      } else {
        this.#tail[0] = oldest.slice(excess);
        this.#tailLength -= excess;
        this.cut += excess;
      }
    }
  }

  output(): Extract<CellOutput, { type: 'stream' }> {
    const text = this.head + this.#tail.join('');
    return { type: 'stream', name: this.name, text, ...(this.cut ? { cut: this.cut } : {}) };
  }
}

/**
 * The outputs of a running cell, bounded: a cell printing without end, or displaying thousands of figures, must
 * not exhaust the harness's memory before the answer is cut to size anyway. Consecutive stream chunks are merged
 * and a long run keeps its start and end with the middle counted; displays beyond the limit are counted.
 */
export class OutputLog {
  readonly #entries: (CellOutput | StreamRun)[] = [];
  #displays = 0;
  /** Displays dropped past the limit. */
  droppedDisplays = 0;

  /** The outputs so far, in order (stream runs as they stand now). */
  get outputs(): CellOutput[] {
    return this.#entries.map((entry) => (entry instanceof StreamRun ? entry.output() : entry));
  }

  push(output: CellOutput): void {
    if (output.type === 'stream') {
      const last = this.#entries[this.#entries.length - 1];
      const run = last instanceof StreamRun && last.name === output.name ? last : new StreamRun(output.name, output.cut);
      if (run !== last) this.#entries.push(run);
      run.append(output.text);
      return;
    }
    if (output.type === 'display' || output.type === 'result') {
      if (this.#displays >= KEEP.displays) {
        this.droppedDisplays++;
        return;
      }
      this.#displays++;
    }
    if (output.type === 'clear') this.#displays = 0;
    this.#entries.push(output);
  }
}
