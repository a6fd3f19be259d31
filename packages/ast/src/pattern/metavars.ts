import type { LanguageSpec } from '../languages.js';

/**
 * A metavariable of a pattern. `$NAME` captures one named node, `$$NAME` one node named or not, `$_` and
 * `$_NAME` match one node without binding it, `$$$NAME` a run of sibling nodes, `$$$` and `$$$_NAME` a run
 * without binding it.
 */
export type MetaVar =
  | { readonly kind: 'single'; readonly name: string | undefined; readonly named: boolean }
  | { readonly kind: 'multi'; readonly name: string | undefined };

const NAME_CHARS = /^[A-Z0-9_]*$/;

/**
 * Rewrites the `$` of metavariables into the language's expando character so the grammar reads them as
 * identifiers (ast-grep's rule: a run of `$` before `A-Z`/`_`, or exactly `$$$`). For JSON, which has no
 * identifiers, metavariables outside strings become string literals instead.
 */
export function preprocessPattern(pattern: string, spec: LanguageSpec): string {
  if (spec.quoteMetavariables) return quoteMetavariables(pattern);
  if (spec.expando === '$') return pattern;
  let out = '';
  let dollars = 0;
  for (const ch of pattern) {
    if (ch === '$') {
      dollars++;
      continue;
    }
    const replace = /[A-Z_]/.test(ch) || dollars === 3;
    out += (replace ? spec.expando : '$').repeat(dollars) + ch;
    dollars = 0;
  }
  out += (dollars === 3 ? spec.expando : '$').repeat(dollars);
  return out;
}

/**
 * JSON: a metavariable outside strings becomes a string literal; one standing for a member of an object (not
 * followed by `:`) becomes a placeholder pair `"$$$REST": 0`, which {@link metaVarOf} reads back.
 */
function quoteMetavariables(pattern: string): string {
  let out = '';
  let inString = false;
  const brackets: string[] = [];
  for (let i = 0; i < pattern.length; i++) {
    const ch = pattern[i] as string;
    if (inString) {
      out += ch;
      if (ch === '\\') out += pattern[++i] ?? '';
      else if (ch === '"') inString = false;
      continue;
    }
    if (ch === '"') inString = true;
    else if (ch === '{' || ch === '[') brackets.push(ch);
    else if (ch === '}' || ch === ']') brackets.pop();
    const token = ch === '$' ? /^\$\$\$(?:[A-Z_][A-Z0-9_]*)?|^\$\$?[A-Z_][A-Z0-9_]*/.exec(pattern.slice(i)) : null;
    if (token) {
      const after = pattern.slice(i + token[0].length).trimStart();
      const before = out.trimEnd();
      const keyPosition = before.endsWith('{') || before.endsWith(',');
      const member = brackets[brackets.length - 1] === '{' && keyPosition && !after.startsWith(':');
      out += member ? `"${token[0]}": 0` : `"${token[0]}"`;
      i += token[0].length - 1;
      continue;
    }
    out += ch;
  }
  return out;
}

/** The metavariable a pattern node's text spells, or `undefined` when it is ordinary code. */
export function metaVarOf(text: string, spec: LanguageSpec): MetaVar | undefined {
  let source = text;
  if (spec.quoteMetavariables) {
    const quoted = /^"(\$[^"]*)"(?:\s*:\s*0)?$/.exec(source);
    if (!quoted) return undefined;
    source = quoted[1] as string;
  }
  const e = spec.quoteMetavariables ? '$' : spec.expando;
  const ellipsis = e + e + e;
  if (source === ellipsis) return { kind: 'multi', name: undefined };
  if (source.startsWith(ellipsis)) {
    const rest = source.slice(ellipsis.length);
    if (!NAME_CHARS.test(rest)) return undefined;
    return { kind: 'multi', name: rest.startsWith('_') ? undefined : rest };
  }
  if (!source.startsWith(e)) return undefined;
  // With `_` as the expando, `$_` is spelled `__`: the wildcard, where the compiler asks for it (see `Deviations`).
  if (spec.wildcardUnderscore && e === '_' && source === '__') return { kind: 'single', name: undefined, named: true };
  let rest = source.slice(e.length);
  const named = !rest.startsWith(e);
  if (!named) rest = rest.slice(e.length);
  if (!/^[A-Z_]/.test(rest) || !NAME_CHARS.test(rest)) return undefined;
  return { kind: 'single', name: rest.startsWith('_') ? undefined : rest, named };
}

/** Metavariable names (without `$`) that a text written in pattern syntax uses, in order of appearance. */
export function metaVarNames(text: string): { single: string[]; multi: string[] } {
  const single: string[] = [];
  const multi: string[] = [];
  for (const m of text.matchAll(/\$\$\$([A-Z_][A-Z0-9_]*)(?![\p{L}\p{N}_$])|\$\$?([A-Z_][A-Z0-9_]*)(?![\p{L}\p{N}_$])/gu)) {
    if (m[1] && !m[1].startsWith('_')) multi.push(m[1]);
    if (m[2] && !m[2].startsWith('_')) single.push(m[2]);
  }
  return { single, multi };
}
