/** Machine-readable codes of {@link DebugError}. */
export type DebugErrorCode =
  | 'invalid_argument'
  | 'no_adapter'
  | 'adapter_unusable'
  | 'adapter_start_failed'
  | 'adapter_exited'
  | 'request_failed'
  | 'request_timeout'
  | 'session_running'
  | 'no_session'
  | 'not_stopped'
  | 'stale_reference'
  | 'disposed';

/**
 * The one error class of `@agent-tools/debug`. Its message names the package; `detail` is the same sentence
 * without the prefix, which is what the debug tool hands the model (it says what to call next).
 */
export class DebugError extends Error {
  override readonly name = 'DebugError';
  readonly code: DebugErrorCode;
  /** The message without the package prefix. */
  readonly detail: string;

  constructor(code: DebugErrorCode, detail: string, options?: { cause?: unknown }) {
    super(`[agent-tools/debug] ${detail}`, options);
    this.code = code;
    this.detail = detail;
  }
}

/** Whether a value is a {@link DebugError}, optionally of one code. */
export function isDebugError(error: unknown, code?: DebugErrorCode): error is DebugError {
  return error instanceof DebugError && (code === undefined || error.code === code);
}
