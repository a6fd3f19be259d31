import type { LanguageId } from '../languages.js';

/** `{P}` stands for the pattern, indented where the construct wants it. */
type Shape = string;

const C_LIKE: Readonly<Record<string, Shape>> = {
  case: 'switch ($_) {\n{P}\n}',
  default: 'switch ($_) {\n{P}\n}',
  else: 'if ($_) {\n  $$$BODY\n} {P}',
  catch: 'try {\n  $$$BODY\n} {P}',
  finally: 'try {\n  $$$BODY\n} {P}',
};

/**
 * Clauses that only exist inside a larger construct, per language, by their first word: a fragment starting with
 * one parses only by error recovery, so it is unparseable, and the answer suggests the enclosing construct.
 */
const CLAUSES: Partial<Record<LanguageId, Readonly<Record<string, Shape>>>> = {
  python: {
    except: 'try:\n    $$$BODY\n{P}',
    finally: 'try:\n    $$$BODY\n{P}',
    elif: 'if $_:\n    $$$BODY\n{P}',
    else: 'if $_:\n    $$$BODY\n{P}',
    case: 'match $_:\n{P:    }',
  },
  go: { case: 'switch $_ {\n{P}\n}', default: 'switch $_ {\n{P}\n}', else: 'if $_ {\n\t$$$BODY\n} {P}' },
  rust: { else: 'if $_ {\n    $$$BODY\n} {P}' },
  c: C_LIKE,
  cpp: C_LIKE,
  csharp: C_LIKE,
  java: C_LIKE,
  javascript: C_LIKE,
  typescript: C_LIKE,
  tsx: C_LIKE,
  dart: C_LIKE,
  kotlin: { else: 'if ($_) {\n  $$$BODY\n} {P}', catch: 'try {\n  $$$BODY\n} {P}', finally: 'try {\n  $$$BODY\n} {P}' },
  swift: { case: 'switch $_ {\n{P}\n}', default: 'switch $_ {\n{P}\n}', else: 'if $_ {\n  $$$BODY\n} {P}', catch: 'do {\n  $$$BODY\n} {P}' },
  ruby: {
    rescue: 'begin\n  $$$BODY\n{P}\nend',
    ensure: 'begin\n  $$$BODY\n{P}\nend',
    elsif: 'if $_\n  $$$BODY\n{P}\nend',
    else: 'if $_\n  $$$BODY\n{P}\nend',
    when: 'case $_\n{P}\nend',
  },
  lua: { elseif: 'if $_ then\n  $$$BODY\n{P}\nend', else: 'if $_ then\n  $$$BODY\n{P}\nend' },
  bash: { elif: 'if $_; then\n  $$$\n{P}\nfi', else: 'if $_; then\n  $$$\n{P}\nfi' },
  // (A named run alone in a PHP block reads as a label missing its `:`; the unnamed `$$$` reads as a statement.)
  php: {
    else: 'if ($_) { $$$ } {P}',
    elseif: 'if ($_) { $$$ } {P}',
    catch: 'try { $$$ } {P}',
    finally: 'try { $$$ } {P}',
    case: 'switch ($_) {\n{P}\n}',
    default: 'switch ($_) {\n{P}\n}',
  },
  scala: { else: 'if ($_) {\n  $$$BODY\n} {P}', catch: 'try {\n  $$$BODY\n} {P}', finally: 'try {\n  $$$BODY\n} {P}' },
};

/**
 * Clause words a language also allows as names, where a fragment reading one as a name is a genuine reading
 * (a JavaScript method named `catch`, Kotlin's soft keywords, Ruby's method bodies with `rescue`); in every other
 * language of the table the clause word is reserved, and a reading of it as a name is error recovery.
 */
const NAMES_ALLOWED: Partial<Record<LanguageId, true | readonly string[]>> = {
  javascript: true,
  typescript: true,
  tsx: true,
  kotlin: ['catch', 'finally'],
  // Python's `case` is a soft keyword: `case = 1` is an assignment.
  python: ['case'],
  ruby: true,
  bash: true,
  lua: true,
};

/**
 * The clause word a pattern starts with when its reading is not the clause: the word is reserved and read as a
 * name (Rust's `else { b }` as a struct named `else`), or the fragment parsed only with a metavariable where the
 * grammar wanted other syntax (Swift's `case $X:` alone). Both parse only by error recovery: unparseable, as the
 * same fragment without metavariables is.
 */
export function misreadClause(language: LanguageId, pattern: string, leaves: readonly { named: boolean; kind: string; text: string }[], lenient: boolean): string | undefined {
  const clause = /^[a-z]+/.exec(pattern.trimStart())?.[0];
  if (!clause || !CLAUSES[language]?.[clause]) return undefined;
  if (lenient) return clause;
  const allowed = NAMES_ALLOWED[language];
  if (allowed === true || allowed?.includes(clause)) return undefined;
  return leaves.some((l) => l.named && l.text === clause && l.kind !== clause) ? clause : undefined;
}

/** The enclosing construct a clause-only fragment needs, with the fragment in place; `undefined` for others. */
export function enclosingConstruct(language: LanguageId, pattern: string): { clause: string; suggestion: string } | undefined {
  const clause = /^[a-z]+/.exec(pattern.trimStart())?.[0];
  const shape = clause ? CLAUSES[language]?.[clause] : undefined;
  if (!clause || !shape) return undefined;
  const indented = /\{P:( +)\}/.exec(shape);
  const body = indented ? pattern.split('\n').map((l) => (l ? (indented[1] as string) + l : l)).join('\n') : pattern;
  return { clause, suggestion: shape.replace(/\{P(?::[^}]*)?\}/, () => body) };
}
