/** The longest delay one `setTimeout` holds (2^31 - 1 ms, about 24.8 days); a longer one fires after 1 ms. */
export const MAX_TIMER_MS = 2 ** 31 - 1;

/**
 * Calls `callback` once `ms` have passed, whatever the delay: past what one timer holds it waits in steps, and for
 * `Infinity` (or `NaN`) it never calls. A harness that sets a timeout of 30 days, or `Infinity` for none, gets
 * exactly that, not a timer that fires at once. Returns the function that cancels it.
 */
export function afterDelay(ms: number, callback: () => void, options: { readonly unref?: boolean } = {}): () => void {
  let timer: NodeJS.Timeout | undefined;
  const wait = (left: number): void => {
    if (!Number.isFinite(left)) return;
    const step = Math.min(Math.max(0, left), MAX_TIMER_MS);
    timer = setTimeout(() => (left > MAX_TIMER_MS ? wait(left - MAX_TIMER_MS) : callback()), step);
    if (options.unref) timer.unref();
  };
  wait(ms);
  return () => clearTimeout(timer);
}
