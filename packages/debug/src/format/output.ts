import type { OutputSlice } from '../session/output-buffer.js';

/** The program's output as an answer shows it. */
export interface OutputView {
  /** Empty only when the program printed nothing in the range. */
  readonly text: string;
  /** How the text relates to all that was printed, for the header: "" when it is all of it. */
  readonly note: string;
}

/**
 * The newest output of a slice, ready to show. A cut output starts at a line boundary when that keeps most of
 * it; otherwise (a line about as long as the cap) the line's end is shown behind a `…` marker: output the program
 * printed is never answered as "nothing".
 */
export function outputView(slice: OutputSlice): OutputView {
  let text = slice.text;
  let lineCut = '';
  if (slice.partialLine) {
    const newline = text.replace(/\n$/, '').indexOf('\n');
    // Dropping the cut line is worth it only when most of the text is left; a long line is shown cut instead.
    if (newline >= 0 && newline < text.length / 2) text = text.slice(newline + 1);
    else {
      text = `…${text}`;
      lineCut = ', the first line cut at its start';
    }
  }
  if (!slice.cut) return { text, note: '' };
  const shown = text.length - (lineCut ? 1 : 0);
  const redrawn = slice.redrawn ? '; carriage-return redraws show their last state' : '';
  return { text, note: `the newest ${shown} of ${slice.total} characters printed${lineCut}${redrawn}` };
}
