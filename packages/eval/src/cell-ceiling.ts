import { afterDelay } from '@agent-tools/core/internal';

/**
 * A cell's hard ceiling: it runs out after `ms` of the cell's own running time, whatever it prints. Time spent in
 * bridged calls does not count (the clock is paused meanwhile, as the idle budget is), so a cell waiting on
 * subagents is not cut short, while a cell printing forever is.
 */
export class CellCeiling implements Disposable {
  readonly #onExpire: () => void;
  #left: number;
  #since = 0;
  #cancel = (): void => undefined;
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
    this.#cancel();
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
    // afterDelay, not setTimeout: a ceiling past 2^31 ms would fire at once.
    this.#cancel = afterDelay(this.#left, () => this.#onExpire());
  }

  [Symbol.dispose](): void {
    this.#disposed = true;
    this.#cancel();
  }
}
