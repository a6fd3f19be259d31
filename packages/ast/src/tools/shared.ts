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
  .describe('Code fragment with metavariables ($NAME, $$$NAME, $_), in the language being searched.');

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
