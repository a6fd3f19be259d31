/**
 * Where a metavariable stands alone as a statement in a language whose statements end with `;` (`if ($C) $S`,
 * `for (...) $$$`, `{ $S }`, `do $B while ($C);` in C), the grammar reads it as an expression missing its `;`, or
 * as something else entirely (C++ reads `{ $S }` as an initializer list). The compiler tries such a pattern again
 * with a `;` after each of those metavariables; the `;` is marked virtual, so the metavariable is the whole
 * statement and matches any statement, blocks included.
 */

/** Words after which a statement starts. */
const STATEMENT_BEFORE = /(?:^|[{};)]|\belse|\bdo)$/;
/** What may follow a statement that lacks its `;`. */
const STATEMENT_AFTER = /^(?:$|[}]|else\b|while\b)/;

/**
 * The pattern with `suffix` (`;`, or `();` for C#, where a bare name is no statement) after every metavariable
 * that stands alone as a statement, and the ranges of those suffixes in the returned text; `undefined` when there
 * is none.
 */
export function withStatementSemicolons(
  pattern: string,
  expando: string,
  suffix = ';',
): { body: string; virtual: { start: number; end: number }[] } | undefined {
  const e = expando.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const metavariable = new RegExp(`(?:${e}){1,3}[A-Z_][A-Z0-9_]*|(?:${e}){3}`, 'g');
  let body = '';
  let last = 0;
  const virtual: { start: number; end: number }[] = [];
  for (const m of pattern.matchAll(metavariable)) {
    const at = m.index ?? 0;
    const end = at + m[0].length;
    // (What comes before includes the `;` given to an earlier metavariable: `{ $A\n$B }` is two statements.)
    const before = (body + pattern.slice(last, at)).trimEnd();
    const afterRaw = pattern.slice(end);
    const after = afterRaw.trimStart();
    const newline = afterRaw.slice(0, afterRaw.length - after.length).includes('\n');
    if (!STATEMENT_BEFORE.test(before) || !(STATEMENT_AFTER.test(after) || (newline && !/^[.,;)\]=+\-*/%&|^<>?:]/.test(after)))) continue;
    body += pattern.slice(last, end);
    virtual.push({ start: body.length, end: body.length + suffix.length });
    body += suffix;
    last = end;
  }
  if (virtual.length === 0) return undefined;
  return { body: body + pattern.slice(last), virtual };
}
