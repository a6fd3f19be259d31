import { LspError } from '../errors.js';
import { splitLines } from '../util/text.js';

/** Where a symbol was found: 0-based LSP position plus what a result needs to show. */
export interface SymbolPosition {
  /** 0-based line. */
  readonly line: number;
  /** 0-based UTF-16 column (LSP's default encoding; JavaScript strings index the same way). */
  readonly character: number;
  /** Length of the identifier at the position. */
  readonly length: number;
  readonly lineText: string;
}

const ID = /[\p{L}\p{N}_$]/u;
const IDENTIFIER = /^[\p{L}\p{N}_$]+$/u;
const QUALIFIED = /^[\p{L}\p{N}_$]+(?:(?:\.|::|->|\?\.)[\p{L}\p{N}_$]+)+\s*(?:\(\s*\)?)?$/u;

/**
 * Finds the column of `symbol` on a 1-based line. An identifier matches whole words first and any substring
 * only when no whole word does; a qualified name (`obj.method`, `os.path.join`) points at its last segment;
 * anything else points at the first identifier character of the match. A symbol that is missing from the
 * line, or occurs several times without `occurrence` (1-based, from the left), is an error that quotes the line.
 */
export function locateSymbol(
  text: string,
  line: number,
  symbol: string | undefined,
  occurrence: number | undefined,
  file: string,
): SymbolPosition {
  const lines = splitLines(text);
  if (!Number.isInteger(line) || line < 1 || line > lines.length) {
    throw new LspError('bad_position', `${file} has ${lines.length} lines; there is no line ${line}. Lines are 1-based.`);
  }
  const lineText = lines[line - 1] as string;
  const quoted = `line ${line} of ${file}: \`${lineText.trim()}\``;
  if (symbol === undefined || symbol.trim() === '') {
    const names = [...new Set(lineText.match(/[\p{L}_$][\p{L}\p{N}_$]*/gu) ?? [])].slice(0, 8);
    const hint = names.length ? ` Names on that line: ${names.join(', ')}.` : '';
    throw new LspError(
      'bad_position',
      `Pass "symbol": the name to ask about as written on ${quoted}.${hint} Positions are addressed by line and symbol, never by column.`,
    );
  }
  const wanted = symbol.trim();
  const matches = findMatches(lineText, wanted);
  if (matches.length === 0) {
    const elsewhere = linesContaining(lines, wanted, line);
    const hint = elsewhere.length ? ` It occurs on line${elsewhere.length > 1 ? 's' : ''} ${elsewhere.join(', ')}.` : '';
    throw new LspError('bad_position', `"${wanted}" does not occur on ${quoted}.${hint} Check the line number (1-based) or read the file around it.`);
  }
  if (occurrence === undefined && matches.length > 1) {
    throw new LspError(
      'bad_position',
      `"${wanted}" occurs ${matches.length} times on ${quoted}. Pass "occurrence" (1 to ${matches.length}, counting from the left) to pick one.`,
    );
  }
  const index = (occurrence ?? 1) - 1;
  const match = matches[index];
  if (match === undefined) {
    throw new LspError(
      'bad_position',
      `"${wanted}" occurs ${matches.length === 1 ? 'once' : `${matches.length} times`} on ${quoted}; occurrence ${occurrence} does not exist.`,
    );
  }
  return { line: line - 1, ...anchor(lineText, match, wanted), lineText };
}

/** Start offsets of the symbol in the line: whole words first for identifiers. */
function findMatches(lineText: string, symbol: string): number[] {
  const all: number[] = [];
  for (let at = lineText.indexOf(symbol); at >= 0; at = lineText.indexOf(symbol, at + 1)) all.push(at);
  if (!IDENTIFIER.test(symbol)) return all;
  const whole = all.filter((at) => !isId(lineText[at - 1]) && !isId(lineText[at + symbol.length]));
  return whole.length > 0 ? whole : all;
}

/** The column and identifier length a match points at. */
function anchor(lineText: string, start: number, symbol: string): { character: number; length: number } {
  let offset = 0;
  if (QUALIFIED.test(symbol)) {
    const identifiers = [...symbol.matchAll(/[\p{L}\p{N}_$]+/gu)];
    offset = identifiers[identifiers.length - 1]?.index ?? 0;
  } else {
    while (offset < symbol.length && !isId(symbol[offset])) offset++;
    if (offset === symbol.length) offset = 0;
  }
  const character = start + offset;
  let end = character;
  while (end < lineText.length && isId(lineText[end])) end++;
  return { character, length: Math.max(1, end - character) };
}

function linesContaining(lines: readonly string[], symbol: string, around: number): number[] {
  const found: number[] = [];
  for (const [index, text] of lines.entries()) {
    if (findMatches(text, symbol).length > 0) found.push(index + 1);
  }
  return found.sort((a, b) => Math.abs(a - around) - Math.abs(b - around)).slice(0, 5).sort((a, b) => a - b);
}

function isId(char: string | undefined): boolean {
  return char !== undefined && ID.test(char);
}
