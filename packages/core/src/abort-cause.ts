import { AgentToolsError } from './errors.js';

/**
 * Whether what cancelled or timed-out work threw is the abort's own doing, not a bug: the signal's reason itself,
 * an AgentToolsError (a tool's answer, such as "the request was cancelled"), an AbortError, or an error caused by
 * one of those.
 */
export function causedByAbort(error: unknown, reason: unknown): boolean {
  for (let e = error, depth = 0; e !== undefined && e !== null && depth < 8; e = (e as { cause?: unknown }).cause, depth++) {
    if (e === reason || AgentToolsError.isInstance(e)) return true;
    if (typeof e === 'object' && (e as { name?: unknown }).name === 'AbortError') return true;
    if (typeof e !== 'object') return false;
  }
  return false;
}
