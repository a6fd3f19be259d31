import { AgentToolsError, type AgentToolsErrorOptions } from '@agent-tools/core/errors';

/** Machine-readable codes of {@link EvalToolError}. */
export type EvalToolErrorCode =
  | 'server_start_failed'
  | 'server_unreachable'
  | 'kernel_unavailable'
  | 'kernel_start_failed'
  | 'kernel_died'
  | 'disposed';

/**
 * The one error class of `@agent-tools/eval`, on core's error base: `detail` says what went wrong and what to do,
 * `message` adds the package's name, `code` lets programs branch without parsing text.
 */
export class EvalToolError extends AgentToolsError<EvalToolErrorCode> {
  override readonly name = 'EvalToolError';

  constructor(code: EvalToolErrorCode, detail: string, options?: AgentToolsErrorOptions) {
    super('eval', code, detail, options);
  }
}
