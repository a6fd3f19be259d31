import { isStackOverflow } from '../engine/stack-overflow.js';
import { AstError } from '../errors.js';

/**
 * For a `.catch` around a pattern compile that only asks whether the fragment can be read that way: what compiling
 * raises when it cannot gives `undefined`; anything else is a bug in the compiler, thrown on so that it reaches the
 * harness instead of reading as "not parseable". web-tree-sitter raises nothing for text it cannot parse (the tree
 * holds ERROR and MISSING nodes, and a parse without a deadline always returns one); our compiler says so with an
 * AstError `unparseable_pattern` or `invalid_pattern`. A fragment nested thousands of levels deep runs the call stack
 * out (a RangeError), which the loader answers as too deep: not a bug either.
 */
export function notReadable(error: unknown): undefined {
  if (error instanceof AstError && (error.code === 'unparseable_pattern' || error.code === 'invalid_pattern')) return undefined;
  if (isStackOverflow(error)) return undefined;
  throw error;
}
