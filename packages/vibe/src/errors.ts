import { AgentToolsError, type AgentToolsErrorOptions } from '@agent-tools/core/errors';

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
 * The one error class of `@agent-tools/vibe`, on core's error base: `detail` says what went wrong and what to do,
 * `message` adds the package's name, `code` lets programs branch without parsing text. The tools throw it and
 * the registry renders it for the model.
 */
export class VibeError extends AgentToolsError<VibeErrorCode> {
  override readonly name = 'VibeError';

  constructor(code: VibeErrorCode, detail: string, options?: AgentToolsErrorOptions) {
    super('vibe', code, detail, options);
  }
}
