import { AstError } from '../errors.js';

/**
 * A Rust `regex` (what ast-grep's `regex` and `replace` take) as a JavaScript RegExp: leading inline flags
 * (`(?i)`, `(?s)`, `(?m)`) become flags and `(?P<name>…)` becomes `(?<name>…)`; the rest of the two syntaxes agree
 * for ordinary expressions. Unanchored, as ast-grep's `is_match`.
 */
export function toJsRegExp(source: string, path: string, global = false): RegExp {
  let body = source;
  let flags = global ? 'g' : '';
  for (;;) {
    const m = /^\(\?([imsx]+)\)/.exec(body);
    if (!m) break;
    for (const f of m[1] as string) {
      if (f === 'x') throw new AstError('invalid_rule', `Invalid rule at \`${path}\`: the (?x) flag is not supported; write the expression without spaces and comments.`);
      if (!flags.includes(f)) flags += f;
    }
    body = body.slice(m[0].length);
  }
  body = body.replace(/\(\?P</g, '(?<');
  try {
    return new RegExp(body, `${flags}u`);
  } catch {
    // Not valid with the u flag (SyntaxError only): tried again without it, where a second failure is the rule's error.
    try {
      return new RegExp(body, flags);
    } catch (error) {
      throw new AstError('invalid_rule', `Invalid rule at \`${path}\`: not a valid regular expression (${(error as Error).message}).`);
    }
  }
}
