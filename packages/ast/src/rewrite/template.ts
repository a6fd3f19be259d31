import { AstError } from '../errors.js';
import type { MatchRecord } from '../match/find.js';
import { dedent } from '../pattern/compile.js';
import type { CompiledPattern } from '../pattern/pattern-node.js';

const METAVAR = /\$\$\$([A-Z_][A-Z0-9_]*)|\$\$?([A-Z_][A-Z0-9_]*)/g;

/** A rewrite template, dedented, checked against the pattern's metavariables. */
export interface RewriteTemplate {
  readonly text: string;
}

/**
 * Prepares a rewrite: strips its common indentation and refuses metavariables the pattern does not bind (a
 * typo would otherwise paste nothing).
 */
export function prepareRewrite(rewrite: string, pattern: CompiledPattern): RewriteTemplate {
  const text = dedent(rewrite);
  const known = new Set([...pattern.singles, ...pattern.multis]);
  const unknown = new Set<string>();
  for (const m of text.matchAll(METAVAR)) {
    const name = (m[1] ?? m[2]) as string;
    if (name.startsWith('_')) {
      throw new AstError('invalid_rewrite', `The rewrite uses $${name}, but $_ metavariables bind nothing; name it ($${name.slice(1) || 'X'}) in the pattern and the rewrite.`);
    }
    if (!known.has(name)) unknown.add(name);
  }
  if (unknown.size > 0) {
    const bound = known.size ? [...pattern.singles.map((n) => `$${n}`), ...pattern.multis.map((n) => `$$$${n}`)].join(', ') : 'none';
    throw new AstError(
      'invalid_rewrite',
      `The rewrite uses ${[...unknown].map((n) => `$${n}`).join(', ')}, which the pattern does not capture (it captures: ${bound}). Use the pattern's metavariables, or write the text literally.`,
    );
  }
  return { text };
}

/**
 * The replacement text of one match: metavariables substituted (a `$$$` run keeps its original separators),
 * multi-line captures re-indented to where they land in the template, and the whole replacement re-indented
 * to the match's indentation, so indentation-sensitive code (Python) stays valid.
 */
export function renderReplacement(template: RewriteTemplate, match: MatchRecord, source: string): string {
  const text = inFileStyle(template.text, source);
  const matchIndent = lineIndent(source, match.start);
  /** An indentation of the source made relative to the match's line. */
  const relative = (indent: string): string => (indent.startsWith(matchIndent) ? indent.slice(matchIndent.length) : indent);
  let out = '';
  let last = 0;
  for (const m of text.matchAll(METAVAR)) {
    const index = m.index ?? 0;
    out += text.slice(last, index);
    last = index + m[0].length;
    const capture = match.captures[(m[1] ?? m[2]) as string];
    if (!capture?.text) {
      if (capture?.items) {
        // An empty run alone on its line takes the line with it.
        const lineStart = text.lastIndexOf('\n', index - 1) + 1;
        const lineEnd = text.indexOf('\n', last);
        const rest = text.slice(last, lineEnd === -1 ? text.length : lineEnd);
        if (!text.slice(lineStart, index).trim() && !rest.trim()) {
          out = out.slice(0, out.length - (index - lineStart));
          if (out.endsWith('\n')) {
            out = out.slice(0, -1);
            last = lineEnd === -1 ? text.length : lineEnd;
          } else {
            last = lineEnd === -1 ? text.length : lineEnd + 1;
          }
          continue;
        }
        // An empty run takes one separator with it: `foo($$$A, x)` with no arguments is `foo(x)`, not `foo(, x)`.
        const following = /^,[ \t]*/.exec(text.slice(last));
        if (following) last += following[0].length;
        else if (/^\s*[)\]}>]/.test(text.slice(last)) || last === text.length) out = out.replace(/,[ \t]*$/, '');
      }
      continue;
    }
    const templateIndent = lineIndent(text, index);
    // A capture that sat on its own lines inside the match (`foo(\n    a,\n    b,\n)`) keeps those line
    // breaks when the template puts it right against other code (`bar($$$ARGS)`).
    const before = breakBefore(source, match.start, capture.start);
    const after = breakAfter(source, capture.end, match.end);
    const tight = (ch: string | undefined): boolean => ch !== undefined && !/\s/.test(ch);
    const captureIndent = lineIndent(source, capture.start);
    let lineIndentHere = templateIndent;
    if (before !== undefined && tight(out[out.length - 1])) {
      lineIndentHere = templateIndent + relative(captureIndent);
      out += `\n${lineIndentHere}`;
    }
    out += capture.text.includes('\n') ? reindent(deindent(capture.text, captureIndent.length), lineIndentHere) : capture.text;
    if (after !== undefined && tight(text[last])) out += `\n${templateIndent}${relative(after)}`;
  }
  out += text.slice(last);
  const replaced = reindent(out, matchIndent);
  // Keep the file's line endings.
  return source.includes('\r\n') ? replaced.replace(/\r?\n/g, '\r\n') : replaced;
}

/**
 * The template with its indentation re-expressed in the file's unit (tabs, or its width of spaces): a
 * rewrite written with four spaces lands in a tab-indented Go file as tabs.
 */
function inFileStyle(template: string, source: string): string {
  const lines = template.split('\n');
  const spaces = lines.slice(1).map((l) => /^ */.exec(l)?.[0].length ?? 0).filter((n, i) => n > 0 && lines[i + 1]?.trim());
  if (spaces.length === 0 || lines.some((l) => l.startsWith('\t'))) return template;
  const unit = Math.min(...spaces);
  const fileUnit = indentUnit(source);
  if (!fileUnit || fileUnit === ' '.repeat(unit)) return template;
  return lines
    .map((line) => {
      const lead = /^ */.exec(line)?.[0].length ?? 0;
      return fileUnit.repeat(Math.floor(lead / unit)) + ' '.repeat(lead % unit) + line.slice(lead);
    })
    .join('\n');
}

/** The file's indentation unit: a tab, or its smallest indentation in spaces; `undefined` when it has none. */
function indentUnit(source: string): string | undefined {
  let tabs = 0;
  let smallest = Infinity;
  for (const m of source.matchAll(/^([ \t]+)\S/gm)) {
    const lead = m[1] as string;
    if (lead.startsWith('\t')) tabs++;
    else if (lead.length < smallest) smallest = lead.length;
  }
  if (tabs > 0 && (smallest === Infinity || tabs > 2)) return '\t';
  return smallest >= 2 && smallest <= 8 ? ' '.repeat(smallest) : undefined;
}

/** When only whitespace with a line break separates `offset` from earlier code of the match: `undefined` otherwise. */
function breakBefore(source: string, floor: number, offset: number): string | undefined {
  let i = offset;
  while (i > floor && /\s/.test(source[i - 1] as string)) i--;
  return i > floor && source.slice(i, offset).includes('\n') ? '' : undefined;
}

/** The indentation of the next code of the match when a line break comes first; `undefined` otherwise. */
function breakAfter(source: string, offset: number, ceiling: number): string | undefined {
  let j = offset;
  while (j < ceiling && /\s/.test(source[j] as string)) j++;
  if (j >= ceiling || !source.slice(offset, j).includes('\n')) return undefined;
  return lineIndent(source, j);
}

/** The leading whitespace of the line that contains `offset`. */
export function lineIndent(text: string, offset: number): string {
  const start = text.lastIndexOf('\n', offset - 1) + 1;
  return /^[ \t]*/.exec(text.slice(start, Math.max(start, offset)))?.[0] ?? '';
}

/** Removes up to `width` leading whitespace characters from every line but the first. */
function deindent(text: string, width: number): string {
  if (width === 0) return text;
  return text
    .split('\n')
    .map((line, i) => {
      if (i === 0) return line;
      const lead = /^[ \t]*/.exec(line)?.[0].length ?? 0;
      return line.slice(Math.min(width, lead));
    })
    .join('\n');
}

/** Puts `indent` before every non-empty line but the first. */
function reindent(text: string, indent: string): string {
  if (!indent) return text;
  return text
    .split('\n')
    .map((line, i) => (i === 0 || !line ? line : indent + line))
    .join('\n');
}
