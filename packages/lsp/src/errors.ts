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

/**
 * The one error class of `@agent-tools/lsp`. Its message names the package and says what to do next; `code`
 * lets programs branch without parsing text.
 */
export class LspError extends Error {
  override readonly name = 'LspError';
  readonly code: LspErrorCode;

  constructor(code: LspErrorCode, message: string, options?: { cause?: unknown }) {
    super(`[agent-tools/lsp] ${message}`, options);
    this.code = code;
  }

  /** The message without the package prefix, for a sentence inside a longer tool result. */
  get detail(): string {
    return this.message.replace(/^\[agent-tools\/lsp\] /, '');
  }
}

/** Whether a thrown value is an {@link LspError}, optionally of one of the given codes. */
export function isLspError(error: unknown, ...codes: LspErrorCode[]): error is LspError {
  return error instanceof LspError && (codes.length === 0 || codes.includes(error.code));
}

/** The model-facing text of any thrown value: an LspError without its prefix, anything else as its message. */
export function detailOf(error: unknown): string {
  if (error instanceof LspError) return error.detail;
  if (error instanceof Error) return error.message;
  return String(error);
}
