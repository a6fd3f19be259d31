/** Where a line of Python starts, lexically: only lines that start a statement may hold an IPython idiom. */
export interface LineStart {
  /** The line's text. */
  readonly text: string;
  /** True when the line begins a new statement: not inside brackets, a triple-quoted string or a `\` continuation. */
  readonly statementStart: boolean;
}

/**
 * Splits Python source into lines and marks which of them start a statement. A `%` or `!` at the start of such a
 * line is never valid Python, so rewriting it cannot change the meaning of valid code; inside brackets it may be
 * the modulo operator, inside a string it is text.
 */
export function scanLines(source: string): LineStart[] {
  const lines = source.split('\n');
  const result: LineStart[] = [];
  let depth = 0;
  let triple: string | undefined;
  let continued = false;
  for (const text of lines) {
    result.push({ text, statementStart: depth === 0 && triple === undefined && !continued });
    continued = false;
    let i = 0;
    while (i < text.length) {
      if (triple !== undefined) {
        const end = findClosing(text, i, triple);
        if (end < 0) {
          i = text.length;
          break;
        }
        triple = undefined;
        i = end + 3;
        continue;
      }
      const ch = text[i] as string;
      if (ch === '#') break;
      if (ch === '\\' && i === text.length - 1) {
        continued = true;
        break;
      }
      if (ch === '"' || ch === "'") {
        const quote = text.startsWith(ch.repeat(3), i) ? ch.repeat(3) : ch;
        if (quote.length === 3) {
          const end = findClosing(text, i + 3, quote);
          if (end < 0) {
            triple = quote;
            i = text.length;
            break;
          }
          i = end + 3;
          continue;
        }
        const end = findClosing(text, i + 1, quote);
        if (end < 0) {
          // An unterminated one-line string: a `\` at its end continues it onto the next line.
          continued = text.endsWith('\\');
          break;
        }
        i = end + 1;
        continue;
      }
      if (ch === '(' || ch === '[' || ch === '{') depth++;
      else if (ch === ')' || ch === ']' || ch === '}') depth = Math.max(0, depth - 1);
      i++;
    }
  }
  return result;
}

/** The index of the closing quote at or after `from`, skipping backslash escapes; -1 when the line has none. */
function findClosing(text: string, from: number, quote: string): number {
  for (let i = from; i < text.length; i++) {
    if (text[i] === '\\') {
      i++;
      continue;
    }
    if (text.startsWith(quote, i)) return i;
  }
  return -1;
}
