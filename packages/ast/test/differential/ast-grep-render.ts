import type { MatchRecord } from '../../src/index.js';

/** A metavariable as ast-grep reads a rewrite template: `$`, `$$` or `$$$` and a name of `A-Z`, `0-9`, `_`. */
const METAVAR = /\$\$\$([A-Z_][A-Z0-9_]*)|\$\$?([A-Z_][A-Z0-9_]*)/g;

/**
 * ast-grep 0.51's rewrite of one match, reproduced to prove we know what its CLI writes: the template as given,
 * each capture de-indented by its line's leading spaces and re-indented to the template's (spaces only, tabs
 * count as no indentation), an empty `$$$` inserting nothing (its separators stay), and every line after the
 * first indented by the match line's leading spaces.
 */
export function renderAsAstGrep(template: string, match: MatchRecord, source: string): string {
  let out = '';
  let last = 0;
  for (const m of template.matchAll(METAVAR)) {
    const index = m.index ?? 0;
    out += template.slice(last, index);
    last = index + m[0].length;
    const capture = match.captures[(m[1] ?? m[2]) as string];
    if (!capture?.text) continue;
    out += indentLines(spacesBefore(template, index), capture.text, spacesBefore(source, capture.start));
  }
  out += template.slice(last);
  return indentLines(spacesBefore(source, match.start), out, 0);
}

/** ast-grep's `get_indent_at_offset`: the spaces at the start of the line, when only spaces precede the text. */
function spacesBefore(text: string, offset: number): number {
  const from = Math.max(0, offset - 512);
  let indent = 0;
  for (let i = offset - 1; i >= from; i--) {
    const ch = text[i];
    if (ch === '\n') return indent;
    indent = ch === ' ' ? indent + 1 : 0;
  }
  return from === 0 ? indent : 0;
}

/** ast-grep's `indent_lines`: lines after the first moved from `original` spaces to `indent`. */
function indentLines(indent: number, text: string, original: number): string {
  if (!text.includes('\n') || original === indent) return text;
  const lines = text.split('\n');
  if (original > indent) {
    const strip = ' '.repeat(original - indent);
    return lines.map((line) => (line.startsWith(strip) ? line.slice(strip.length) : line)).join('\n');
  }
  const pad = ' '.repeat(indent - original);
  return lines.map((line, i) => (i === 0 ? line : pad + line)).join('\n');
}

/** ast-grep's `--update-all` on one file: matches applied front to back, a match overlapping an earlier one skipped. */
export function rewriteAsAstGrep(template: string, matches: readonly MatchRecord[], source: string): string {
  const sorted = [...matches].sort((a, b) => a.start - b.start || b.end - a.end);
  let out = '';
  let at = 0;
  for (const match of sorted) {
    if (match.start < at) continue;
    out += source.slice(at, match.start) + renderAsAstGrep(template, match, source);
    at = match.end;
  }
  return out + source.slice(at);
}
