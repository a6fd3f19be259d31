/** Splits text into lines the way LSP counts them (`\r\n`, `\n` and `\r` all end a line). */
export function splitLines(text: string): string[] {
  return text.split(/\r\n|\r|\n/);
}

/** A source line as shown to a model: trimmed, and cut when very long. */
export function showLine(line: string, max = 160): string {
  const trimmed = line.trim();
  return trimmed.length > max ? `${trimmed.slice(0, max)}…` : trimmed;
}

/** `1 file`, `3 files`. */
export function plural(count: number, noun: string, pluralNoun = `${noun}s`): string {
  return `${count} ${count === 1 ? noun : pluralNoun}`;
}
