import { AgentToolsError, type AgentToolsErrorOptions } from '@agent-tools/core/errors';

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
 * The one error class of `@agent-tools/ask`, on core's error base: `detail` says what went wrong, `message` adds
 * the package's name, `code` lets programs branch without parsing text.
 */
export class AskError extends AgentToolsError<AskErrorCode> {
  override readonly name = 'AskError';

  constructor(code: AskErrorCode, detail: string, options?: AgentToolsErrorOptions) {
    super('ask', code, detail, options);
  }
}
