import { AgentToolsError, type AgentToolsErrorOptions, isAgentToolsError } from '@agent-tools/core/errors';

/** Machine-readable codes of {@link LspError}. */
export type LspErrorCode =
  /** No configured server handles the file's extension. */
  | 'no_server'
  /** A server handles the file, but no root marker was found between the file and the working directory. */
  | 'no_root'
  /** A server handles the file, but its binary was not found. */
  | 'no_binary'
  /** The server process could not be started or did not finish initializing. */
  | 'start_failed'
  /** The server process exited while a request was in flight. */
  | 'server_exited'
  /** The server crashed too often in a short time and is not restarted automatically. */
  | 'crash_loop'
  /** A request did not get an answer in time. */
  | 'timeout'
  /** The server answered a request with an error. */
  | 'request_failed'
  /** The server does not offer what was asked (no implementation provider, no rename). */
  | 'unsupported'
  /** The call was cancelled. */
  | 'cancelled'
  /** The supervisor has been disposed. */
  | 'disposed'
  /** A symbol could not be located on the given line. */
  | 'bad_position'
  /** A workspace edit could not be applied as a whole. */
  | 'edit_failed';

/** What to call next, per code, for the errors whose sentence does not say it. */
const HINTS: Partial<Record<LspErrorCode, string>> = {
  no_server: 'Call lsp with action "status" to see which servers exist.',
  no_root: 'Call lsp with action "status" to see where servers can start.',
  no_binary: 'Call lsp with action "status" to see every server and where it was looked for.',
  start_failed: 'Call lsp with action "status" for details; call "reload" after fixing the cause.',
  timeout: 'The server may still be loading the project: try again in a moment, or call lsp with action "reload" if it keeps hanging.',
  server_exited: 'It will be restarted on the next call.',
  request_failed: 'Try another position or action.',
};

/**
 * The one error class of `@agent-tools/lsp`, on core's error base: `detail` says what went wrong, `hint` what to
 * call next (by default the advice of its code), `message` adds the package's name; `code` lets programs branch
 * without parsing text.
 */
export class LspError extends AgentToolsError<LspErrorCode> {
  override readonly name = 'LspError';

  constructor(code: LspErrorCode, detail: string, options: AgentToolsErrorOptions = {}) {
    super('lsp', code, detail, { hint: HINTS[code], ...options });
  }
}

/** Whether a thrown value is an {@link LspError} (from any copy of the package), optionally of one of the codes. */
export function isLspError(error: unknown, ...codes: LspErrorCode[]): error is LspError {
  return isAgentToolsError(error, 'lsp', ...codes);
}
