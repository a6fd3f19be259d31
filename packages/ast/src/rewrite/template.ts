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
  const text = template.text;
  let out = '';
  let last = 0;
  for (const m of text.matchAll(METAVAR)) {
    const index = m.index ?? 0;
    out += text.slice(last, index);
    last = index + m[0].length;
    const capture = match.captures[(m[1] ?? m[2]) as string];
    if (!capture) continue;
    const value = capture.text;
    if (!value.includes('\n')) {
      out += value;
      continue;
    }
    // Lines after the first keep their indentation relative to the capture's line, moved to the template's.
    const from = lineIndent(source, capture.start);
    const to = lineIndent(text, index);
    out += reindent(deindent(value, from.length), to);
  }
  out += text.slice(last);
  return reindent(out, lineIndent(source, match.start));
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
