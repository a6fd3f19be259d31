/**
 * What a terminal shows of text written with carriage returns: a bare `\r` moves back to the start of the line
 * and what follows overwrites it, so a progress bar redrawn ten thousand times reads as its last state. `\r\n`
 * is a plain line end.
 *
 * Linear in the length of the text whatever its shape (one huge line redrawn by tiny writes included): each line's
 * segments are walked from the last one back, and a segment contributes only the columns no later segment covered.
 */
export function collapseCarriageReturns(text: string): string {
  if (!text.includes('\r')) return text;
  const lines = text.split('\n');
  for (let index = 0; index < lines.length; index++) {
    const line = lines[index] as string;
    if (!line.includes('\r')) continue;
    const segments = line.split('\r');
    // A line ending in "\r\n" ends with an empty segment that overwrites nothing.
    const pieces: string[] = [];
    let covered = 0;
    for (let i = segments.length - 1; i >= 0; i--) {
      const segment = segments[i] as string;
      if (segment.length > covered) {
        pieces.push(segment.slice(covered));
        covered = segment.length;
      }
    }
    lines[index] = pieces.join('');
  }
  return lines.join('\n');
}
