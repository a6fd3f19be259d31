import { z } from 'zod';
import { LANGUAGE_IDS } from '../languages.js';

/** The pattern-language guidance every search tool carries: the model's only manual. */
export const PATTERN_GUIDE = [
  'The pattern is a code fragment in the target language, parsed by the same grammar as the files, so it matches however the code is spaced, wrapped or commented, and never inside a string or a comment.',
  'Metavariables: $NAME matches exactly one node (an expression, identifier, type, statement ...); $$$NAME matches zero or more sibling nodes (arguments, parameters, statements) and captures them as a list; $_ matches any one node without binding it (each $_ is independent).',
  'A metavariable used twice must match the same code: `$A == $A` finds `x == x`, not `x == y`.',
  'The fragment must be one complete node (an expression, a statement or a declaration); it is read on its own first (as ast-grep reads it), and where that does not parse cleanly it is tried as a statement, an expression, a class member, a declaration and at top level, and the first that parses is used. A metavariable standing alone as a statement (`if ($C) $S`) matches any statement, blocks included. A fragment none of them accepts is reported as unparseable, with the place where it fails.',
  'A node may have more children after the ones the pattern names (`if err != nil { return $$$ }` also finds guards with an else), but not in between: `def $F($$$P): $$$BODY` misses `def f(x) -> int:`, for which you write `def $F($$$P) -> $R: $$$BODY`.',
  'Multi-line fragments use real line breaks and, in Python, real indentation.',
  'Examples: `console.log($$$ARGS)`; `$OBJ.dispose()`; `if ($X != null) $X.dispose()` (dart); `errors.New($MSG)` (go); `with open($PATH) as $F: $$$BODY` (python); `free($P)` (c); `foo($$$A, $LAST)` finds every call with at least one argument and binds the last.',
].join(' ');

/** The `pattern` parameter. */
export const patternParameter = z
  .string()
  .min(1)
  .optional()
  .describe('Code fragment with metavariables ($NAME, $$$NAME, $_), in the language being searched. Required unless `rule` is given.');

/** The `path` parameter. */
export const pathParameter = z
  .string()
  .optional()
  .describe('File or folder to search, relative to the working directory. Default: the whole working directory.');

/** The `language` parameter. */
export const languageParameter = z
  .string()
  .optional()
  .describe(
    `Grammar id: ${LANGUAGE_IDS.join(', ')} (aliases such as ts, js, py, rs, golang work). Inferred from the extension when path is a file; required for a folder. Each language searches its own extensions (typescript: .ts .mts .cts; tsx: .tsx).`,
  );

/** The rule guidance of ast_grep and ast_edit: one short example of each kind of key. */
export const RULE_GUIDE = [
  'Instead of (or beside) `pattern`, `rule` takes an ast-grep rule object as JSON text; every key of one object must hold (`constraints`, `utils`, and for ast_edit `transform`, are JSON text too).',
  'Atomic: {"pattern": "console.log($A)"}; {"pattern": {"context": "class A { $M() {} }", "selector": "method_definition", "strictness": "relaxed"}} (strictness: cst, smart (default), ast, relaxed, signature); {"kind": "call_expression"}; {"regex": "^on[A-Z]"} (the node\'s text); {"nthChild": 1} or {"nthChild": {"position": "2n+1", "reverse": true, "ofRule": {"kind": "identifier"}}}.',
  'Relational (each takes a rule, plus "stopBy": "neighbor" (default: parent / direct children / adjacent sibling), "end" (all the way) or a rule where the search stops, and "field" for inside/has): {"inside": {"kind": "function_declaration", "stopBy": "end"}}; {"has": {"pattern": "await $X", "stopBy": "end"}}; {"has": {"kind": "identifier", "field": "name"}}; {"precedes": {"kind": "return_statement"}}; {"follows": {"pattern": "let $A = $B"}}.',
  'Composite: {"all": [{...}, {...}]}; {"any": [{...}, {...}]}; {"not": {...}}; {"matches": "util-name"} with `utils`: {"util-name": {...rule}}.',
  '`constraints` narrow what a metavariable captured: {"B": {"regex": "^[\\"\']"}} with "pattern": "$A == $B". Metavariables bound by one key must be the same code in the others.',
  'Example: calls to fetch inside an async function but not inside a try: {"pattern": "fetch($$$)", "inside": {"kind": "function_declaration", "regex": "^async", "stopBy": "end"}, "not": {"inside": {"kind": "try_statement", "stopBy": "end"}}}.',
  'A rule needs a `kind` or `pattern` (directly or in every branch of an `any`) so the nodes to test are known. Kinds and fields are the grammar\'s: a wrong one is an error listing close ones; ast_tree shows how code parses.',
].join(' ');

/** The `rule` parameter: JSON text, so the schema stays closed (OpenAI's strict mode cannot express an open object). */
export const ruleParameter = z
  .string()
  .optional()
  .describe('An ast-grep rule object as JSON text (see the description), instead of or beside `pattern`: \'{"kind": "call_expression", "inside": {"kind": "class_declaration", "stopBy": "end"}}\'.');

/** The `constraints` parameter. */
export const constraintsParameter = z
  .string()
  .optional()
  .describe('JSON text: rules a captured metavariable must also match, by name: \'{"A": {"regex": "^test"}}\'.');

/** The `utils` parameter. */
export const utilsParameter = z
  .string()
  .optional()
  .describe('JSON text: named rules that `matches` refers to: \'{"is-literal": {"any": [{"kind": "string"}, {"kind": "number"}]}}\'.');
