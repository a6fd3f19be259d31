/** Machine-readable codes of {@link VibeError}. */
export type VibeErrorCode =
  /** Too many workers are running. */
  | 'limit'
  /**
   * Refused because of the calling surface: the runner cannot hold a worker to it (no read-only command), or the
   * worker was started with more than it admits.
   */
  | 'surface'
  /** No worker has that id (or label). */
  | 'unknown_worker'
  /** The process runner's command template is unusable. */
  | 'invalid_template'
  /** Vibe mode is on but no runner is configured. */
  | 'not_configured'
  /** The worker list was disposed. */
  | 'disposed';

/**
 * The one error class of `@agent-tools/vibe`. Its message names the package and says what to do; the `code` lets
 * programs branch without parsing text.
 */
export class VibeError extends Error {
  override readonly name = 'VibeError';
  readonly code: VibeErrorCode;

  constructor(code: VibeErrorCode, message: string, options?: { cause?: unknown }) {
    super(`[agent-tools/vibe] ${message}`, options);
    this.code = code;
  }
}
