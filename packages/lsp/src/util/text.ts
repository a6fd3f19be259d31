import type { Range } from 'vscode-languageserver-protocol';

/** Splits text into lines the way LSP counts them (`\r\n`, `\n` and `\r` all end a line). */
export function splitLines(text: string): string[] {
  return text.split(/\r\n|\r|\n/);
}

/** A source line as shown to a model: trimmed, and cut when very long. */
export function showLine(line: string, max = 160): string {
  const trimmed = line.trim();
  return trimmed.length > max ? `${trimmed.slice(0, max)}…` : trimmed;
}

/** The text a range covers, lines joined with newlines. */
export function textInRange(lines: readonly string[], range: Range): string {
  if (range.start.line === range.end.line) return (lines[range.start.line] ?? '').slice(range.start.character, range.end.character);
  const parts = [(lines[range.start.line] ?? '').slice(range.start.character)];
  for (let line = range.start.line + 1; line < range.end.line; line++) parts.push(lines[line] ?? '');
  parts.push((lines[range.end.line] ?? '').slice(0, range.end.character));
  return parts.join('\n');
}
