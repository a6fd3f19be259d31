import { messageOf } from './errors.js';
import { formatLimit } from './wording.js';

/** Whether a value has a way to be disposed. */
export function isDisposable(value: unknown): boolean {
  if (value === null || (typeof value !== 'object' && typeof value !== 'function')) return false;
  const v = value as Record<PropertyKey, unknown>;
  return typeof v[Symbol.asyncDispose] === 'function' || typeof v[Symbol.dispose] === 'function' || typeof v['dispose'] === 'function';
}

/**
 * Disposes a value by whichever method it has, waiting at most `timeoutMs`. Returns an error message when it
 * threw or hung, so one bad resource cannot stop the others from being disposed; `onThrow` gets what it threw
 * itself (with its stack), for a caller that reports it.
 */
export async function disposeValue(value: unknown, timeoutMs: number, onThrow?: (error: unknown) => void): Promise<string | undefined> {
  if (!isDisposable(value)) return undefined;
  const v = value as Record<PropertyKey, () => unknown>;
  const method = v[Symbol.asyncDispose] ?? v['dispose'] ?? v[Symbol.dispose];
  let timer: NodeJS.Timeout | undefined;
  try {
    const hung = new Promise<string>((resolve) => {
      timer = setTimeout(resolve, timeoutMs, `did not finish disposing within ${formatLimit(timeoutMs)}`);
    });
    const done = Promise.resolve()
      .then(() => method?.call(value))
      .then(() => undefined);
    return await Promise.race([done, hung]);
  } catch (error) {
    onThrow?.(error);
    return messageOf(error);
  } finally {
    clearTimeout(timer);
  }
}
