/** The longest delay setTimeout keeps (2^31 - 1 ms, about 24.8 days). */
const MAX_TIMER_MS = 2 ** 31 - 1;

/**
 * A cell's hard ceiling: it runs out after `ms` of the cell's own running time, whatever it prints. Time spent in
 * bridged calls does not count (the clock is paused meanwhile, as the idle budget is), so a cell waiting on
 * subagents is not cut short, while a cell printing forever is.
 */
export class CellCeiling implements Disposable {
  readonly #onExpire: () => void;
  #left: number;
  #since = 0;
  #timer: NodeJS.Timeout | undefined;
  #paused = 0;
  #disposed = false;

  constructor(ms: number, onExpire: () => void) {
    this.#left = ms;
    this.#onExpire = onExpire;
    this.#run();
  }

  /** Stops the clock until every pause has been resumed. */
  pause(): void {
    if (this.#paused++ > 0) return;
    clearTimeout(this.#timer);
    this.#timer = undefined;
    this.#left -= performance.now() - this.#since;
  }

  /** Ends one pause; the clock runs on from where it stopped when none is left. */
  resume(): void {
    if (this.#paused === 0) return;
    this.#paused--;
    if (this.#paused === 0) this.#run();
  }

  #run(): void {
    if (this.#disposed || !Number.isFinite(this.#left)) return;
    this.#since = performance.now();
    // A timer cannot wait longer than MAX_TIMER_MS (a longer delay fires at once): wake up and wait the rest.
    const wait = Math.min(Math.max(0, this.#left), MAX_TIMER_MS);
    this.#timer = setTimeout(() => {
      this.#left -= performance.now() - this.#since;
      if (this.#left > 0) this.#run();
      else this.#onExpire();
    }, wait);
  }

  [Symbol.dispose](): void {
    this.#disposed = true;
    clearTimeout(this.#timer);
  }
}
