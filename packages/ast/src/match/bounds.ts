/**
 * What a match record keeps of the code it refers to. A record crosses from a search worker to the calling thread
 * by copy, and nested matches each hold the code of every level inside them: 50,000 nested arrays are 2.5 billion
 * characters of match texts, which killed the process that received them. The answer shows far less than these
 * caps; the offsets of a record still name the whole code (an edit takes its texts from the file).
 */

/** Characters of a match's or a capture's code a record keeps (its head). */
export const MAX_RECORD_TEXT = 2000;
/** Texts of a `$$$` run's nodes a record keeps. */
export const MAX_ITEMS = 50;
/** Characters of each of those texts. */
export const MAX_ITEM_TEXT = 200;

/**
 * Where a head of `src[start, end)` (a text of `rows` lines) cuts a line that more lines of the text follow: the characters of that line after
 * the head (so an answer can say how long the line is); `undefined` when the head is whole or ends in the last line
 * (whose length the offsets give).
 */
export function lineRestOf(src: string, start: number, end: number, rows: number, head: string): number | undefined {
  const cut = start + head.length;
  if (cut >= end) return undefined;
  // The head's line is the last when the head holds every line break of the text: then nothing is looked for (the
  // rest of a one-line match may be the rest of the file).
  let breaks = 0;
  for (let i = head.indexOf('\n'); i >= 0; i = head.indexOf('\n', i + 1)) breaks++;
  if (breaks >= rows - 1) return undefined;
  const lineEnd = src.indexOf('\n', cut);
  return lineEnd < 0 || lineEnd >= end ? undefined : lineEnd - cut;
}

/** `src[start, end)`, or its first `max` characters (never half of a surrogate pair). */
export function headOf(src: string, start: number, end: number, max: number): string {
  if (end - start <= max) return src.slice(start, end);
  let cut = start + max;
  const last = src.charCodeAt(cut - 1);
  if (last >= 0xd800 && last <= 0xdbff) cut--;
  return src.slice(start, cut);
}
