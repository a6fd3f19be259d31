import { AgentToolsError, type AgentToolsErrorOptions, isAgentToolsError } from '@agent-tools/core/errors';

/** Machine-readable codes of {@link DebugError}. */
export type DebugErrorCode =
  | 'invalid_argument'
  | 'no_adapter'
  | 'adapter_unusable'
  | 'adapter_start_failed'
  | 'adapter_exited'
  | 'request_failed'
  | 'request_timeout'
  | 'cancelled'
  | 'session_running'
  | 'no_session'
  | 'not_stopped'
  | 'stale_reference'
  | 'disposed';

/**
 * The one error class of `@agent-tools/debug`, on core's error base: `detail` is the sentence the debug tool
 * hands the model (it says what to call next), `message` adds the package's name.
 */
export class DebugError extends AgentToolsError<DebugErrorCode> {
  override readonly name = 'DebugError';

  constructor(code: DebugErrorCode, detail: string, options?: AgentToolsErrorOptions) {
    super('debug', code, detail, options);
  }
}

/** Whether a value is a {@link DebugError} (from any copy of the package), optionally of one code. */
export function isDebugError(error: unknown, code?: DebugErrorCode): error is DebugError {
  return code === undefined ? isAgentToolsError(error, 'debug') : isAgentToolsError(error, 'debug', code);
}
