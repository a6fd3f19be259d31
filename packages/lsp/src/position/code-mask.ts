import { extname } from 'node:path';

/** How a language writes comments and strings, as far as telling code from text goes. */
export type Family = 'c' | 'js' | 'go' | 'rust' | 'python' | 'dart';

const FAMILIES: Record<string, Family> = {
  '.ts': 'js', '.tsx': 'js', '.mts': 'js', '.cts': 'js', '.js': 'js', '.jsx': 'js', '.mjs': 'js', '.cjs': 'js',
  '.py': 'python', '.pyi': 'python',
  '.go': 'go',
  '.rs': 'rust',
  '.dart': 'dart',
};

/** The lexical family of a file, by extension; C's rules for anything else with braces. */
export function familyOf(file: string): Family {
  return FAMILIES[extname(file).toLowerCase()] ?? 'c';
}

/**
 * Marks which UTF-16 units of a text are code, as opposed to the inside of a comment or a string literal (the
 * quotes included). Interpolations (`${x}` in a JavaScript template, `{x}` in a Python f-string, `$x` and `${x}`
 * in Dart) are code. The scan starts at the top of the file, so a line inside a block comment or a multi-line
 * string is known to be text. It is a lexer, not a parser: regular-expression literals count as code.
 */
export function codeMask(text: string, family: Family): Uint8Array {
  const mask = new Uint8Array(text.length).fill(1);
  const lexer = new Lexer(text, mask, family);
  lexer.run(text.length, 0);
  return mask;
}

class Lexer {
  constructor(
    readonly text: string,
    readonly mask: Uint8Array,
    readonly family: Family,
  ) {}

  /** Lexes code from `i` until `end`, or until the brace that closes an interpolation (depth 0 `}`); returns where it stopped. */
  run(end: number, start: number, interpolation = false): number {
    const { text, family } = this;
    let depth = 0;
    let i = start;
    while (i < end) {
      const c = text[i] as string;
      const next = text[i + 1];
      if (interpolation) {
        if (c === '{') depth++;
        else if (c === '}') {
          if (depth === 0) return i;
          depth--;
        }
      }
      if (family === 'python') {
        if (c === '#') i = this.text_(i, this.lineEnd(i));
        else if (c === '"' || c === "'") i = this.pythonString(i, i);
        else if (PY_PREFIX.has(c) && isPrefixStart(text, i)) {
          const prefix = /^[rRbBuUfF]{1,2}(?=["'])/.exec(text.slice(i, i + 3));
          i = prefix ? this.pythonString(i, i + prefix[0].length) : i + 1;
        } else i++;
        continue;
      }
      if (c === '/' && next === '/') i = this.text_(i, this.lineEnd(i));
      else if (c === '/' && next === '*') i = this.blockComment(i);
      else if (c === '"' || (c === "'" && family !== 'rust')) {
        const raw = family === 'dart' && text[i - 1] === 'r' && !isIdentifierChar(text, i - 2);
        const quote = family === 'dart' && text.startsWith(c.repeat(3), i) ? c.repeat(3) : c;
        i = this.quoted(i, quote, !raw, family === 'dart' && !raw);
      } else if (c === "'" && family === 'rust') i = this.rustQuote(i);
      else if (c === '`' && family === 'js') i = this.template(i);
      else if (c === '`' && family === 'go') i = this.text_(i, closing(text, '`', i + 1));
      else if (family === 'c' && c === 'R' && next === '"' && !isIdentifierChar(text, i - 1)) i = this.cppRaw(i);
      else if (family === 'rust' && c === 'r' && (next === '"' || next === '#') && !isIdentifierChar(text, i - 1)) i = this.rustRaw(i);
      else i++;
    }
    return i;
  }

  /** Marks [from, to) as text; returns `to`. */
  text_(from: number, to: number): number {
    this.mask.fill(0, from, to);
    return to;
  }

  /**
   * Where a line comment that starts at `i` ends: at `\n` or `\r` (a file with old Mac line ends has no `\n`), and in
   * JavaScript also at U+2028 and U+2029, which end a `//` comment there (code after one on the same LSP line is code).
   */
  lineEnd(i: number): number {
    const ends = this.family === 'js' ? LINE_ENDS_JS : LINE_ENDS;
    for (let j = i; j < this.text.length; j++) if (ends.has(this.text.charCodeAt(j))) return j;
    return this.text.length;
  }

  blockComment(i: number): number {
    const nested = this.family === 'rust' || this.family === 'dart';
    let depth = 0;
    let j = i;
    while (j < this.text.length) {
      if (this.text.startsWith('/*', j)) {
        depth++;
        j += 2;
        if (!nested && depth > 1) depth = 1;
      } else if (this.text.startsWith('*/', j)) {
        depth--;
        j += 2;
        if (depth === 0) break;
      } else j++;
    }
    return this.text_(i, j);
  }

  /** A string closed by `quote`; escapes with backslash unless raw; Dart interpolation when asked. */
  quoted(i: number, quote: string, escapes: boolean, interpolate: boolean): number {
    const { text } = this;
    const multiline = quote.length === 3;
    let j = i + quote.length;
    this.text_(i, j);
    while (j < text.length) {
      if (text.startsWith(quote, j)) return this.text_(j, j + quote.length);
      const c = text[j];
      if (c === '\n' && !multiline) return j; // An unterminated string ends with its line.
      if (c === '\\' && escapes) {
        j = this.text_(j, Math.min(j + 2, text.length));
        continue;
      }
      if (interpolate && c === '$') {
        if (text[j + 1] === '{') {
          this.text_(j, j + 2);
          const close = this.run(text.length, j + 2, true);
          j = this.text_(close, Math.min(close + 1, text.length));
          continue;
        }
        if (isIdentifierStart(text, j + 1)) {
          this.text_(j, j + 1);
          j++;
          while (isIdentifierChar(text, j)) j++;
          continue;
        }
      }
      j = this.text_(j, j + 1);
    }
    return j;
  }

  template(i: number): number {
    const { text } = this;
    let j = this.text_(i, i + 1);
    while (j < text.length) {
      const c = text[j];
      if (c === '`') return this.text_(j, j + 1);
      if (c === '\\') {
        j = this.text_(j, Math.min(j + 2, text.length));
        continue;
      }
      if (c === '$' && text[j + 1] === '{') {
        this.text_(j, j + 2);
        const close = this.run(text.length, j + 2, true);
        j = this.text_(close, Math.min(close + 1, text.length));
        continue;
      }
      j = this.text_(j, j + 1);
    }
    return j;
  }

  /** A Python string literal beginning at `start` (its prefix) whose quote is at `quoteAt`. */
  pythonString(start: number, quoteAt: number): number {
    const { text } = this;
    const prefix = text.slice(start, quoteAt).toLowerCase();
    const q = text[quoteAt] as string;
    const quote = text.startsWith(q.repeat(3), quoteAt) ? q.repeat(3) : q;
    const raw = prefix.includes('r');
    const format = prefix.includes('f');
    let j = this.text_(start, quoteAt + quote.length);
    while (j < text.length) {
      if (text.startsWith(quote, j)) return this.text_(j, j + quote.length);
      const c = text[j];
      if (c === '\n' && quote.length === 1 && text[j - 1] !== '\\') return j;
      if (c === '\\' && !raw) {
        j = this.text_(j, Math.min(j + 2, text.length));
        continue;
      }
      if (format && c === '{') {
        if (text[j + 1] === '{') {
          j = this.text_(j, j + 2);
          continue;
        }
        this.text_(j, j + 1);
        const close = this.run(text.length, j + 1, true);
        j = this.text_(close, Math.min(close + 1, text.length));
        continue;
      }
      j = this.text_(j, j + 1);
    }
    return j;
  }

  /** `'x'`, `'\n'` are characters; `'a` is a lifetime or a label, which is code. */
  rustQuote(i: number): number {
    const { text } = this;
    if (text[i + 1] === '\\') return this.text_(i, closing(text, "'", i + 2));
    const cp = text.codePointAt(i + 1);
    const width = cp !== undefined && cp > 0xffff ? 2 : 1;
    if (text[i + 1 + width] === "'") return this.text_(i, i + 2 + width);
    return i + 1;
  }

  rustRaw(i: number): number {
    const match = /^r(#*)"/.exec(this.text.slice(i, i + 260));
    if (!match) return i + 1;
    const close = `"${match[1]}`;
    const end = this.text.indexOf(close, i + match[0].length);
    return this.text_(i, end < 0 ? this.text.length : end + close.length);
  }

  cppRaw(i: number): number {
    const match = /^R"([^()\\\s]{0,16})\(/.exec(this.text.slice(i, i + 20));
    if (!match) return this.quoted(i + 1, '"', true, false);
    const close = `)${match[1]}"`;
    const end = this.text.indexOf(close, i + match[0].length);
    return this.text_(i, end < 0 ? this.text.length : end + close.length);
  }
}

/** The index just past the closing quote (skipping escaped ones), or the text's end. */
function closing(text: string, quote: string, from: number): number {
  let j = from;
  while (j < text.length) {
    if (text[j] === '\\' && quote !== '`') j += 2;
    else if (text[j] === quote) return j + 1;
    else j++;
  }
  return text.length;
}

function isPrefixStart(text: string, i: number): boolean {
  return !isIdentifierChar(text, i - 1);
}

const PY_PREFIX = new Set(['r', 'R', 'b', 'B', 'u', 'U', 'f', 'F']);
const LINE_ENDS = new Set([0x0a, 0x0d]);
const LINE_ENDS_JS = new Set([0x0a, 0x0d, 0x2028, 0x2029]);
const ID_START = /[\p{ID_Start}_$]/u;
const ID_CONTINUE = /[\p{ID_Continue}_$\u200c\u200d]/u;

/** The code point at a UTF-16 index, reading a surrogate pair as one character. */
function codePointAround(text: string, i: number): string | undefined {
  if (i < 0 || i >= text.length) return undefined;
  const unit = text.charCodeAt(i);
  // A low surrogate belongs to the pair that starts one unit earlier.
  if (unit >= 0xdc00 && unit <= 0xdfff && i > 0) {
    const high = text.charCodeAt(i - 1);
    if (high >= 0xd800 && high <= 0xdbff) return String.fromCodePoint(text.codePointAt(i - 1) as number);
  }
  return String.fromCodePoint(text.codePointAt(i) as number);
}

/** Whether the character at a UTF-16 index (either half of a pair) can be part of an identifier. */
export function isIdentifierChar(text: string, i: number): boolean {
  const unit = text.charCodeAt(i);
  // ASCII, nearly every character of code, without a Unicode property lookup.
  if (unit < 128) return (unit >= 97 && unit <= 122) || (unit >= 65 && unit <= 90) || (unit >= 48 && unit <= 57) || unit === 95 || unit === 36;
  if (Number.isNaN(unit)) return false;
  const ch = codePointAround(text, i);
  return ch !== undefined && ID_CONTINUE.test(ch);
}

function isIdentifierStart(text: string, i: number): boolean {
  const ch = codePointAround(text, i);
  return ch !== undefined && ID_START.test(ch);
}
