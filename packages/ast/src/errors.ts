/** Machine-readable codes of {@link AstError}. */
export type AstErrorCode =
  | 'unknown_language'
  | 'unparseable_pattern'
  | 'invalid_pattern'
  | 'invalid_rewrite'
  | 'grammar_unavailable'
  | 'worker_failed'
  | 'disposed'
  | 'cancelled';

/**
 * The one error class of `@agent-tools/ast`. Its message names the package and says what to do next; the
 * `code` lets programs branch without parsing text.
 */
export class AstError extends Error {
  override readonly name = 'AstError';
  readonly code: AstErrorCode;

  constructor(code: AstErrorCode, message: string, options?: { cause?: unknown }) {
    super(`[agent-tools/ast] ${message}`, options);
    this.code = code;
  }
}
