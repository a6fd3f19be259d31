import type { Writable } from 'node:stream';
import { formatProgress, type ProgressEvent } from '@agent-tools/core';

/** One line at the bottom of a terminal saying what the running call is doing; redrawn in place. */
export interface StatusLine {
  /** The listener a call is given: draws its newest report. */
  readonly onProgress: ((event: ProgressEvent) => void) | undefined;
  /** Erases the line (before the answer, a prompt or a card is written). */
  clear(): void;
  /** Erases the line and keeps it away while `work` runs (a prompt the human is typing at). */
  hold<T>(work: () => Promise<T>): Promise<T>;
}

const SPINNER = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'];

/**
 * A status line on `stream` when it is a terminal and `enabled`; otherwise one that does nothing (piped output
 * and `--json` stay free of control sequences). The line is the progress report, then the newest line of the
 * call's output, cut to the terminal's width.
 */
export function statusLine(stream: Writable & { isTTY?: boolean; columns?: number }, enabled: boolean): StatusLine {
  if (!enabled || !stream.isTTY) return { onProgress: undefined, clear: () => undefined, hold: (work) => work() };
  let shown = false;
  let frame = 0;
  let held = 0;
  const line: StatusLine = {
    onProgress(event) {
      if (held > 0) return;
      const width = Math.max(20, (stream.columns || 80) - 1);
      const last = lastLine(event.output);
      const text = `${SPINNER[frame++ % SPINNER.length]} ${formatProgress(event)}${last ? ` · ${last}` : ''}`;
      stream.write(`\r\x1b[2K${clip(text, width)}`);
      shown = true;
    },
    clear() {
      if (!shown) return;
      stream.write('\r\x1b[2K');
      shown = false;
    },
    async hold(work) {
      held++;
      line.clear();
      try {
        return await work();
      } finally {
        held--;
      }
    },
  };
  return line;
}

/** The last line of output with text on it, without control characters. */
function lastLine(output: string | undefined): string {
  if (!output) return '';
  const lines = output.split(/\r?\n|\r/).map((line) => line.replace(/[\u0000-\u001f\u007f]/g, '').trim());
  return lines.filter(Boolean).at(-1) ?? '';
}

/** The text cut to `width` code points, with an ellipsis when cut. */
function clip(text: string, width: number): string {
  const points = [...text.replace(/[\u0000-\u001f\u007f]/g, ' ')];
  return points.length <= width ? points.join('') : `${points.slice(0, width - 1).join('')}…`;
}
