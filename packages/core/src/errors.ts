/** Machine-readable codes of {@link CoreError}. */
export type CoreErrorCode =
  | 'outside_workspace'
  | 'invalid_path'
  | 'duplicate_tool'
  | 'invalid_definition'
  | 'disposed';

/**
 * The one error class of `@agent-tools/core`. Its message names the package and says what to do; the `code`
 * lets programs branch without parsing text.
 */
export class CoreError extends Error {
  override readonly name = 'CoreError';
  readonly code: CoreErrorCode;

  constructor(code: CoreErrorCode, message: string, options?: { cause?: unknown }) {
    super(`[agent-tools/core] ${message}`, options);
    this.code = code;
  }
}

/** The message of any thrown value, without a stack, for a model-facing sentence. */
export function messageOf(error: unknown): string {
  if (error instanceof Error) return error.message;
  if (typeof error === 'string') return error;
  try {
    return JSON.stringify(error) ?? String(error);
  } catch {
    return String(error);
  }
}
