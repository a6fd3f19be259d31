/** Machine-readable codes of {@link AskError}. */
export type AskErrorCode =
  /** A card that cannot be shown: empty question, duplicate or empty labels, nothing that could be answered. */
  | 'invalid_card'
  /** A port answered with something the card does not allow (a label it does not have, text it refused). */
  | 'invalid_answer'
  /** No human is attached to the port. */
  | 'no_human'
  /** The port was disposed while a card waited. */
  | 'closed';

/**
 * The one error class of `@agent-tools/ask`. Its message names the package and says what to do; the `code`
 * lets programs branch without parsing text.
 */
export class AskError extends Error {
  override readonly name = 'AskError';
  readonly code: AskErrorCode;

  constructor(code: AskErrorCode, message: string, options?: { cause?: unknown }) {
    super(`[agent-tools/ask] ${message}`, options);
    this.code = code;
  }
}
