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

/**
 * Escape sequences a terminal acts on instead of printing: CSI (colours, cursor moves, `ESC [` or the one-byte
 * C1 form), OSC with its terminator (window titles, hyperlinks), and the other ESC sequences (`ESC 7`, `ESC M`,
 * `ESC ( B`: intermediate bytes, then one final byte).
 */
const ESCAPES = /\u001b\[[0-?]*[ -/]*[@-~]|\u009b[0-?]*[ -/]*[@-~]|\u001b\][^\u0007\u001b]*(?:\u0007|\u001b\\)|\u001b[ -/]*[0-~]/g;
/** Control characters other than tab, line feed and carriage return: NUL, BEL, backspace, a stray ESC, DEL, C1. */
const CONTROLS = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/g;

/**
 * Text as a model should read a program's terminal output: without colour and cursor codes, and without control
 * characters it could only misread (a NUL, a bell). Tabs, line ends and carriage returns stay, for
 * {@link collapseCarriageReturns}.
 */
export function stripTerminalCodes(text: string): string {
  return text.replace(ESCAPES, '').replace(CONTROLS, '');
}
