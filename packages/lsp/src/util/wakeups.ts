import { onAbort } from '@agent-tools/core/internal';

/**
 * Callers waiting for the next event of something (a publish, a progress report): each wait ends at the next
 * {@link Wakeups.wakeAll}, at its deadline, or when its signal aborts, whichever comes first.
 */
export class Wakeups {
  #waiting: Array<() => void> = [];

  /** Resolves at the next event, at `deadline` (epoch ms), or when the signal aborts. */
  next(deadline: number, signal?: AbortSignal): Promise<void> {
    return new Promise<void>((resolve) => {
      let stop = (): void => {};
      const done = (): void => {
        clearTimeout(timer);
        stop();
        resolve();
      };
      const timer = setTimeout(done, Math.max(0, deadline - Date.now()));
      if (signal) stop = onAbort(signal, done);
      this.#waiting.push(done);
    });
  }

  /** Ends every wait. */
  wakeAll(): void {
    const waiting = this.#waiting;
    this.#waiting = [];
    for (const resolve of waiting) resolve();
  }
}
