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
 * The outputs of a running cell, bounded: a cell printing without end, or displaying thousands of figures, must
 * not exhaust the harness's memory before the answer is cut to size anyway. Consecutive stream chunks are merged
 * and a long run keeps its start and end with the middle counted; displays beyond the limit are counted.
 */
export class OutputLog {
  readonly outputs: CellOutput[] = [];
  #displays = 0;
  /** Displays dropped past the limit. */
  droppedDisplays = 0;

  push(output: CellOutput): void {
    if (output.type === 'stream') {
      const last = this.outputs[this.outputs.length - 1];
      if (last?.type === 'stream' && last.name === output.name) {
        this.outputs[this.outputs.length - 1] = compact({ ...last, text: last.text + output.text });
      } else {
        this.outputs.push(compact(output));
      }
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
    this.outputs.push(output);
  }
}

function compact(output: Extract<CellOutput, { type: 'stream' }>): Extract<CellOutput, { type: 'stream' }> {
  if (output.text.length <= KEEP.stream) return output;
  const tail = KEEP.stream - KEEP.streamHead;
  const removed = output.text.length - KEEP.stream;
  return {
    ...output,
    text: output.text.slice(0, KEEP.streamHead) + output.text.slice(output.text.length - tail),
    cut: (output.cut ?? 0) + removed,
  };
}
