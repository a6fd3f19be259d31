/** Machine-readable codes of {@link EvalToolError}. */
export type EvalToolErrorCode =
  | 'server_start_failed'
  | 'server_unreachable'
  | 'kernel_unavailable'
  | 'kernel_start_failed'
  | 'kernel_died'
  | 'disposed';

/**
 * The one error class of `@agent-tools/eval`. Its message names the package and says what to do; the `code`
 * lets programs branch without parsing text.
 */
export class EvalToolError extends Error {
  override readonly name = 'EvalToolError';
  readonly code: EvalToolErrorCode;

  constructor(code: EvalToolErrorCode, message: string, options?: { cause?: unknown }) {
    super(`[agent-tools/eval] ${message}`, options);
    this.code = code;
  }
}

/** The message of an error without the package prefix, for sentences that already name the tool. */
export function plainMessage(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message.replace(/^\[agent-tools\/eval\] /, '');
}
