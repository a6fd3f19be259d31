import { onAbort } from '@agent-tools/core/internal';
import { LspError } from '../errors.js';

/**
 * Waits for a shared promise (a server's start) on behalf of one caller: the caller's abort ends its wait
 * without cancelling the work others wait for too.
 */
export function raceSignal<T>(promise: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return promise;
  if (signal.aborted) return Promise.reject(new LspError('cancelled', 'The call was cancelled.'));
  return new Promise<T>((resolve, reject) => {
    const stop = onAbort(signal, () => reject(new LspError('cancelled', 'The call was cancelled.')));
    promise.then(
      (value) => {
        stop();
        resolve(value);
      },
      (error: unknown) => {
        stop();
        reject(error);
      },
    );
  });
}
