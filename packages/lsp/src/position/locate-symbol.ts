import { LspError } from '../errors.js';
import { codeMask, familyOf, isIdentifierChar } from './code-mask.js';

/** Where a symbol was found: 0-based LSP position plus what a result needs to show. */
export interface SymbolPosition {
  /** 0-based line. */
  readonly line: number;
  /** 0-based UTF-16 column (LSP's default encoding; JavaScript strings index the same way). */
  readonly character: number;
  /** Length of the identifier at the position, in UTF-16 units. */
  readonly length: number;
  readonly lineText: string;
  /**
   * Set when the symbol matched only inside a longer identifier (`Observer` in `NextObserver`): that identifier,
   * which the position now covers and the server answers for.
   */
  readonly within?: string;
  /** With `within`: lines (1-based, nearest first) where the symbol occurs as a whole identifier. */
  readonly wholeOn?: readonly number[];
}

interface Match {
  readonly character: number;
  readonly length: number;
  /** The longer identifier the symbol is part of. */
  readonly within?: string;
}

/** An identifier of a line outside strings and comments: UTF-16 offsets within the line. */
interface Token {
  readonly start: number;
  readonly end: number;
  readonly text: string;
}

const IDENTIFIER = /^[\p{ID_Continue}_$\u200c\u200d]+$/u;
const SEGMENT = /[\p{ID_Continue}_$\u200c\u200d]+/gu;
const QUALIFIED = /^[\p{ID_Continue}_$]+(?:(?:\.|::|->|\?\.)[\p{ID_Continue}_$]+)+\s*(?:\(\s*\)?)?$/u;

/**
 * Finds the column of `symbol` on a 1-based line. Only identifiers in code count: a name inside a string literal
 * or a comment is never a position. An identifier matches whole identifiers first (compared by code point, so
 * `𐐀foo` does not contain the word `foo`) and part of one only when no whole one does; a qualified name
 * (`obj.method`, `os.path.join`) points at its last segment; anything else points at the first identifier
 * character of the match. A symbol that is missing from the line, occurs only in a string or comment, or
 * occurs several times without `occurrence` (1-based, from the left), is an error that quotes the line.
 */
export function locateSymbol(
  text: string,
  line: number,
  symbol: string | undefined,
  occurrence: number | undefined,
  file: string,
): SymbolPosition {
  const lines = lineSpans(text);
  if (!Number.isInteger(line) || line < 1 || line > lines.length) {
    throw new LspError('bad_position', `${file} has ${lines.length} lines; there is no line ${line}. Lines are 1-based.`);
  }
  const mask = codeMask(text, familyOf(file));
  const span = lines[line - 1] as LineSpan;
  const lineText = text.slice(span.start, span.end);
  const quoted = `line ${line} of ${file}: \`${lineText.trim()}\``;
  if (symbol === undefined || symbol.trim() === '') {
    const names = [...new Set(tokens(text, span, mask).map((t) => t.text))].slice(0, 8);
    const hint = names.length ? ` Names on that line: ${names.join(', ')}.` : '';
    throw new LspError(
      'bad_position',
      `Pass "symbol": the name to ask about as written on ${quoted}.${hint} Positions are addressed by line and symbol, never by column.`,
    );
  }
  const wanted = symbol.trim();
  const { code, elsewhere } = findMatches(text, span, mask, wanted);
  if (code.length === 0) {
    if (elsewhere > 0) {
      throw new LspError(
        'bad_position',
        `"${wanted}" occurs on ${quoted} only inside a string or a comment, which is not a symbol. Address a name written in code.`,
      );
    }
    // Lines where it is a whole name come first: a line where it is only part of a longer name is rarely the one meant.
    const whole = wholeLines(text, lines, mask, wanted, line);
    const partial = nearest(
      lines.map((s, index) => (index !== line - 1 && !whole.includes(index + 1) && findMatches(text, s, mask, wanted).code.length > 0 ? index + 1 : 0)),
      line,
    );
    const hint =
      whole.length > 0
        ? ` It occurs as a whole name on line${whole.length > 1 ? 's' : ''} ${[...whole].sort((a, b) => a - b).join(', ')}${partial.length ? `, and inside longer names on ${partial.join(', ')}` : ''}.`
        : partial.length > 0
          ? ` It occurs only inside longer names, on line${partial.length > 1 ? 's' : ''} ${partial.join(', ')}.`
          : '';
    throw new LspError('bad_position', `"${wanted}" does not occur on ${quoted}.${hint} Check the line number (1-based) or read the file around it.`);
  }
  if (occurrence === undefined && code.length > 1) {
    throw new LspError(
      'bad_position',
      `"${wanted}" occurs ${code.length} times on ${quoted}. Pass "occurrence" (1 to ${code.length}, counting from the left) to pick one.`,
    );
  }
  const match = code[(occurrence ?? 1) - 1];
  if (match === undefined) {
    throw new LspError(
      'bad_position',
      `"${wanted}" occurs ${code.length === 1 ? 'once' : `${code.length} times`} on ${quoted}; occurrence ${occurrence} does not exist.`,
    );
  }
  if (match.within === undefined) return { line: line - 1, character: match.character, length: match.length, lineText };
  return { line: line - 1, character: match.character, length: match.length, lineText, within: match.within, wholeOn: wholeLines(text, lines, mask, wanted, line) };
}

/** Up to five lines other than `line` where the symbol is a whole identifier in code, nearest first. */
function wholeLines(text: string, lines: readonly LineSpan[], mask: Uint8Array, symbol: string, line: number): number[] {
  if (!IDENTIFIER.test(symbol)) return [];
  return nearest(
    lines.map((span, index) => (index !== line - 1 && tokens(text, span, mask).some((t) => t.text === symbol) ? index + 1 : 0)),
    line,
  );
}

/** The five non-zero line numbers nearest to `line`, in ascending order. */
function nearest(candidates: readonly number[], line: number): number[] {
  return candidates
    .filter((n) => n > 0)
    .sort((a, b) => Math.abs(a - line) - Math.abs(b - line))
    .slice(0, 5)
    .sort((a, b) => a - b);
}

interface LineSpan {
  readonly start: number;
  readonly end: number;
}

/** Line start and end offsets, with `\r\n`, `\n` and `\r` ending a line, as LSP counts them. */
function lineSpans(text: string): LineSpan[] {
  const spans: LineSpan[] = [];
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 10 || c === 13) {
      spans.push({ start, end: i });
      if (c === 13 && text.charCodeAt(i + 1) === 10) i++;
      start = i + 1;
    }
  }
  spans.push({ start, end: text.length });
  return spans;
}

/** The identifiers of a line that are code, left to right. */
function tokens(text: string, span: LineSpan, mask: Uint8Array): Token[] {
  const out: Token[] = [];
  let i = span.start;
  while (i < span.end) {
    if (mask[i] === 1 && isIdentifierChar(text, i) && !isDigitStart(text, i)) {
      let j = i;
      while (j < span.end && mask[j] === 1 && isIdentifierChar(text, j)) j++;
      out.push({ start: i - span.start, end: j - span.start, text: text.slice(i, j) });
      i = j;
    } else if (mask[i] === 1 && isIdentifierChar(text, i)) {
      // A number literal (`0x1f`, `10px`) is not a name; skip it whole.
      while (i < span.end && isIdentifierChar(text, i)) i++;
    } else i++;
  }
  return out;
}

function isDigitStart(text: string, i: number): boolean {
  const c = text.charCodeAt(i);
  return c >= 48 && c <= 57;
}

/**
 * The positions of `symbol` on a line among identifiers in code, and how many other occurrences lie in strings
 * or comments.
 */
function findMatches(text: string, span: LineSpan, mask: Uint8Array, symbol: string): { code: Match[]; elsewhere: number } {
  const lineText = text.slice(span.start, span.end);
  const ids = tokens(text, span, mask);
  const raw: number[] = [];
  for (let at = lineText.indexOf(symbol); at >= 0; at = lineText.indexOf(symbol, at + 1)) raw.push(at);
  if (IDENTIFIER.test(symbol)) {
    const whole = ids.filter((t) => t.text === symbol).map((t) => ({ character: t.start, length: t.end - t.start }));
    if (whole.length > 0) return { code: whole, elsewhere: 0 };
    // Part of a longer name: the position covers that whole name (the server answers for it), once per name.
    const part: Match[] = [];
    let inside = 0;
    for (const t of ids) {
      const count = t.text.split(symbol).length - 1;
      if (count === 0) continue;
      inside += count;
      part.push({ character: t.start, length: t.end - t.start, within: t.text });
    }
    return { code: part, elsewhere: raw.length - inside };
  }
  const code: Match[] = [];
  for (const at of raw) {
    const anchor = anchorOffset(symbol);
    const token = ids.find((t) => t.start <= at + anchor && at + anchor < t.end);
    const startsInCode = mask[span.start + at] === 1;
    if (QUALIFIED.test(symbol)) {
      // Every segment must be code, and the last one a whole identifier.
      if (!startsInCode || !token || token.start !== at + anchor) continue;
      code.push({ character: token.start, length: token.end - token.start });
    } else if (token && startsInCode) {
      code.push({ character: at + anchor, length: token.end - (at + anchor) });
    } else if (startsInCode && anchor === 0 && !IDENTIFIER.test(symbol[0] ?? '')) {
      // An operator or punctuation (`+`, `=>`): its own position.
      code.push({ character: at, length: Math.max(1, symbol.length) });
    }
  }
  return { code, elsewhere: raw.length - code.length };
}

/** Where in a matched symbol the position goes: the last segment of a qualified name, else its first identifier character. */
function anchorOffset(symbol: string): number {
  if (QUALIFIED.test(symbol)) {
    const segments = [...symbol.matchAll(SEGMENT)];
    return segments[segments.length - 1]?.index ?? 0;
  }
  const first = SEGMENT.exec(symbol);
  SEGMENT.lastIndex = 0;
  return first?.index ?? 0;
}
