import { AstError } from '../errors.js';
import { dedent } from '../pattern/compile.js';
import type { CompiledPattern } from '../pattern/pattern-node.js';

/**
 * A metavariable in a rewrite template: `$$$NAME`, `$$NAME` or `$NAME`. A name running on into other identifier
 * characters is code, not a metavariable: `$ZodType` in TypeScript stays as written (ast-grep would substitute an
 * unbound `$Z` and leave `odType`), and so does `$A$b`; a name followed by another metavariable is one (`$A$B`,
 * a shell concatenation).
 */
export const METAVAR =
  /\$\$\$([A-Z_][A-Z0-9_]*)(?![\p{L}\p{N}_]|\$(?!\$?\$?[A-Z_]))|\$\$?([A-Z_][A-Z0-9_]*)(?![\p{L}\p{N}_]|\$(?!\$?\$?[A-Z_]))/gu;

/** A rewrite template, dedented, checked against the pattern's metavariables. */
export interface RewriteTemplate {
  readonly text: string;
}

/**
 * Prepares a rewrite: strips its common indentation and refuses metavariables the pattern does not bind (a
 * typo would otherwise paste nothing).
 */
export function prepareRewrite(rewrite: string, pattern: Pick<CompiledPattern, 'singles' | 'multis'>): RewriteTemplate {
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

