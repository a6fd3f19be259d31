import type { MatchRecord } from '../match/find.js';
import { captureRegions, widened } from './comment-owner.js';
import { lineIndent, reindentLine, styleTemplate } from './indent.js';
import { METAVAR, type RewriteTemplate } from './template.js';

/** What a replacement needs to know about the file beyond the match. */
export interface RenderContext {
  readonly source: string;
  /** Offsets of line starts inside multi-line string literals: such lines are copied exactly. */
  readonly stringLines: ReadonlySet<number>;
  /** The file's indentation unit, measured on code lines (a tab, or its width of spaces). */
  readonly unit: string | undefined;
  /** Comments next to a capture travel with it (default true; off reproduces ast-grep). */
  readonly commentsTravel?: boolean;
  /** Whether the file has CRLF line endings, when known (looked for in the source per replacement otherwise). */
  readonly crlf?: boolean;
}

/** A rendered replacement and the captures it used (a comment inside one of them is kept). */
export interface Rendered {
  readonly text: string;
  readonly used: readonly { readonly start: number; readonly end: number }[];
  /** Where each substituted single capture landed in `text` (parentheses added around it included). */
  readonly placed: readonly Placed[];
}

/** A single capture as placed in a rendered replacement. */
export interface Placed {
  readonly name: string;
  /** Offsets into the rendered text. */
  readonly start: number;
  readonly end: number;
  /** The template put it right against identifier characters or inside quotes: it is text there, not a node. */
  readonly glued: boolean;
}

/** Parentheses to add: around captures (by name) and around the whole replacement. */
export interface Wrapping {
  readonly whole?: boolean;
  readonly captures?: ReadonlySet<string>;
}

/** One line of output: `fixed` lines are final (a capture's own line, a line inside a string). */
interface Line {
  text: string;
  fixed: boolean;
}

/**
 * The replacement text of one match: metavariables substituted (a `$$$` run keeps its original separators), each
 * captured line moved by exactly as much as its capture's first line moves, never more (so a line left of the
 * capture's first line, an `else:` after a Python block, keeps its place relative to it), lines inside string
 * literals copied exactly, and the template's own lines indented to the match.
 */
export function renderReplacement(template: RewriteTemplate, match: MatchRecord, ctx: RenderContext, wrap: Wrapping = {}): Rendered {
  const { source } = ctx;
  const text = styleTemplate(template.text, ctx.unit);
  const matchIndent = lineIndent(source, match.start);
  const lines: Line[] = [{ text: '', fixed: false }];
  const used: { start: number; end: number }[] = [];
  const marks: { name: string; from: [number, number]; to: [number, number]; glued: boolean }[] = [];
  const current = (): Line => lines[lines.length - 1] as Line;
  const regions = ctx.commentsTravel === false ? new Map() : captureRegions(match, source);
  /** Appends template text: its line breaks start lines that get the match's indentation. */
  const appendTemplate = (piece: string): void => {
    const parts = piece.split('\n');
    current().text += parts[0];
    for (const part of parts.slice(1)) lines.push({ text: part, fixed: false });
  };
  let last = 0;
  for (const m of text.matchAll(METAVAR)) {
    const index = m.index ?? 0;
    appendTemplate(text.slice(last, index));
    last = index + m[0].length;
    const name = (m[1] ?? m[2]) as string;
    const node = match.captures[name];
    if (!node?.text) {
      if (node?.items) last = dropEmptyRun(lines, text, index, last);
      continue;
    }
    // Pasted as text (against identifier characters or quotes): it is not a node there, and a comment must not
    // travel into a string.
    const pasted = /[\p{L}\p{N}_'"`]/u.test(text[index - 1] ?? '') || /[\p{L}\p{N}_'"`]/u.test(text[last] ?? '');
    // The capture with the comments that belong to it (between it and the pattern's code next to it).
    const capture = pasted ? node : widened(node, regions.get(name));
    used.push({ start: capture.start, end: capture.end });
    const single = m[1] === undefined;
    // Never a second pair: not around a capture that is the whole template when the replacement gets one, nor
    // around one that is already enclosed in parentheses.
    const alone = wrap.whole === true && text.trim() === m[0];
    const paren = single && wrap.captures?.has(name) === true && !alone && !enclosed(capture.text);
    // A capture that sat on its own lines inside the match (`foo(\n    a,\n    b,\n)`) keeps those line breaks
    // when the template puts it right against other code (`bar($$$ARGS)`).
    const tight = (ch: string | undefined): boolean => ch !== undefined && !/\s/.test(ch);
    const templateIndent = lineIndent(text, index);
    // A leading comment on the line of the code before it (`{  // why`) does not set the capture's indentation
    // when the template gives the capture a line of its own: the capture's first node does.
    const ownLine = !text.slice(text.lastIndexOf('\n', index - 1) + 1, index).trim();
    const midLine = !!source.slice(source.lastIndexOf('\n', capture.start - 1) + 1, capture.start).trim();
    const captureIndent = lineIndent(source, capture.start < node.start && midLine && ownLine ? node.start : capture.start);
    let firstIndent = matchIndent + templateIndent;
    if (breakBefore(source, match.start, capture.start) && tight(current().text.at(-1))) {
      firstIndent = reindentLine(captureIndent, matchIndent, firstIndent, true) ?? firstIndent;
      lines.push({ text: firstIndent, fixed: true });
    } else if (current().fixed) {
      firstIndent = lineIndent(current().text, current().text.length);
    }
    const captured = capture.text.split('\n');
    const from: [number, number] = [lines.length - 1, current().text.length];
    if (paren) current().text += '(';
    current().text += captured[0];
    let offset = capture.start + (captured[0] as string).length + 1;
    for (const line of captured.slice(1)) {
      const inString = ctx.stringLines.has(offset);
      lines.push({ text: inString ? line : (reindentLine(line, captureIndent, firstIndent) ?? line), fixed: true });
      offset += line.length + 1;
    }
    if (paren) current().text += ')';
    if (single) {
      // Pasted as text (against identifier characters or quotes), or carrying its comments: not checked as a node.
      const glued = capture !== node || pasted;
      marks.push({ name, from, to: [lines.length - 1, current().text.length], glued });
    }
    const after = breakAfter(source, capture.end, match.end);
    if (after !== undefined && tight(text[last])) {
      lines.push({ text: reindentLine(after, matchIndent, matchIndent + templateIndent, true) ?? after, fixed: true });
    }
  }
  appendTemplate(text.slice(last));
  const finals = lines.map((line, i) => (i === 0 || line.fixed || !line.text ? line.text : matchIndent + line.text));
  const whole = wrap.whole === true && !enclosed(finals.join('\n'));
  const starts: number[] = [];
  let at = whole ? 1 : 0;
  for (const line of finals) {
    starts.push(at);
    at += line.length + 1;
  }
  // Asked of the context once per file: a search of the whole source per replacement cost the square of the file.
  const crlf = ctx.crlf ?? source.includes('\r\n');
  // A mark's column counts from the line's own text; a template line gets the match's indentation in front.
  const offsetOf = ([row, column]: [number, number]): number =>
    (starts[row] as number) + column + (finals[row] !== (lines[row] as Line).text ? matchIndent.length : 0) + (crlf ? row : 0);
  const placed = marks.map((mark) => ({ name: mark.name, start: offsetOf(mark.from), end: offsetOf(mark.to), glued: mark.glued }));
  let out = finals.join('\n');
  if (whole) out = `(${out})`;
  // A match that ends with its line break (a preprocessor line takes its newline) keeps it: a template written
  // without one must not join the next line onto it (`#include $A` → `#include <a.h>#include <b.h>`).
  if (match.text.endsWith('\n') && !out.endsWith('\n') && out !== '') out += '\n';
  // Keep the file's line endings.
  return { text: crlf ? out.replace(/\r?\n/g, '\r\n') : out, used, placed };
}

/** Whether the text is one pair of parentheses around the rest (`(a + b)`, not `(a) + (b)`). */
export function enclosed(text: string): boolean {
  const t = text.trim();
  if (!t.startsWith('(') || !t.endsWith(')')) return false;
  let depth = 0;
  for (let i = 0; i < t.length; i++) {
    if (t[i] === '(') depth++;
    else if (t[i] === ')' && --depth === 0) return i === t.length - 1;
  }
  return false;
}

/**
 * An empty `$$$` run: alone on its template line it takes the line with it; otherwise it takes one separator
 * (`foo($$$A, x)` with no arguments is `foo(x)`, not `foo(, x)`). Returns where the template continues.
 */
function dropEmptyRun(lines: Line[], text: string, index: number, last: number): number {
  const lineStart = text.lastIndexOf('\n', index - 1) + 1;
  const lineEnd = text.indexOf('\n', last);
  const rest = text.slice(last, lineEnd === -1 ? text.length : lineEnd);
  const line = lines[lines.length - 1] as Line;
  if (!text.slice(lineStart, index).trim() && !rest.trim()) {
    line.text = line.text.slice(0, line.text.length - (index - lineStart));
    if (lines.length > 1 && !line.text) {
      lines.pop();
      return lineEnd === -1 ? text.length : lineEnd;
    }
    return lineEnd === -1 ? text.length : lineEnd + 1;
  }
  const following = /^,[ \t]*/.exec(text.slice(last));
  if (following) return last + following[0].length;
  if (/^\s*[)\]}>]/.test(text.slice(last)) || last === text.length) line.text = line.text.replace(/,[ \t]*$/, '');
  return last;
}

/** Whether only whitespace with a line break separates `offset` from earlier code of the match. */
function breakBefore(source: string, floor: number, offset: number): boolean {
  let i = offset;
  while (i > floor && /\s/.test(source[i - 1] as string)) i--;
  return i > floor && source.slice(i, offset).includes('\n');
}

/** The indentation of the next code of the match when a line break comes first; `undefined` otherwise. */
function breakAfter(source: string, offset: number, ceiling: number): string | undefined {
  let j = offset;
  while (j < ceiling && /\s/.test(source[j] as string)) j++;
  if (j >= ceiling || !source.slice(offset, j).includes('\n')) return undefined;
  return lineIndent(source, j);
}
