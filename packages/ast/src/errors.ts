import { AgentToolsError, type AgentToolsErrorOptions } from '@agent-tools/core/errors';

/** Machine-readable codes of {@link AstError}. */
export type AstErrorCode =
  | 'unknown_language'
  | 'unparseable_pattern'
  | 'invalid_pattern'
  | 'invalid_rewrite'
  | 'invalid_rule'
  | 'too_many_matches'
  | 'grammar_unavailable'
  | 'worker_failed'
  | 'disposed'
  | 'cancelled';

/**
 * The one error class of `@agent-tools/ast`, on core's error base: `detail` says what went wrong and what to do
 * next, `message` adds the package's name, `code` lets programs branch without parsing text. The tools simply
 * throw it; the registry renders it for the model.
 */
export class AstError extends AgentToolsError<AstErrorCode> {
  override readonly name = 'AstError';

  constructor(code: AstErrorCode, detail: string, options?: AgentToolsErrorOptions) {
    super('ast', code, detail, options);
  }
}
