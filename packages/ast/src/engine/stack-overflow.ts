/**
 * Whether an error is V8's for a call stack that ran out: a RangeError, as an array too long is, told apart by its
 * message. Code nested thousands of levels deep (a pattern, a rule, a file's tree) runs it out; the search answers
 * that as too deep instead of treating it as a bug.
 */
export function isStackOverflow(error: unknown): boolean {
  return error instanceof RangeError && /call stack/i.test(error.message);
}
