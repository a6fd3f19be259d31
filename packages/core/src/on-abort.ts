/**
 * Listeners of one AbortSignal, fanned out from a single listener of our own. A write's check sends two requests
 * per file under the same signal, so a rename across 29 files put 58 abort listeners on it and Node printed
 * MaxListenersExceededWarning on the harness's stderr; raising the signal's limit is not ours to do (the signal
 * belongs to the harness). One listener per signal, however many requests wait on it.
 */
const fanOut = new WeakMap<AbortSignal, Set<() => void>>();

/** Calls `listener` once when the signal aborts; returns the function that removes it. */
export function onAbort(signal: AbortSignal, listener: () => void): () => void {
  let set = fanOut.get(signal);
  if (!set) {
    const listeners = new Set<() => void>();
    set = listeners;
    fanOut.set(signal, listeners);
    signal.addEventListener(
      'abort',
      () => {
        fanOut.delete(signal);
        for (const fn of [...listeners]) fn();
      },
      { once: true },
    );
  }
  const listeners = set;
  let called = false;
  const once = (): void => {
    if (called) return;
    called = true;
    listener();
  };
  listeners.add(once);
  return () => {
    listeners.delete(once);
  };
}
