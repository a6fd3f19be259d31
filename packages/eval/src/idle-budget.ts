/**
 * A cell's idle budget: it runs out after `ms` without activity (output, or a bridged call finishing), and is
 * paused while a bridged call is in flight, so a cell that fans work out to subagents is not stopped halfway.
 */
export class IdleBudget implements Disposable {
  readonly #ms: number;
  readonly #onExpire: () => void;
  #timer: NodeJS.Timeout | undefined;
  #paused = 0;
  #expired = false;
  #disposed = false;

  constructor(ms: number, onExpire: () => void) {
    this.#ms = ms;
    this.#onExpire = onExpire;
    this.#arm();
  }

  /** Whether the budget ran out. */
  get expired(): boolean {
    return this.#expired;
  }

  /** Activity: the budget starts over. */
  touch(): void {
    if (this.#paused === 0) this.#arm();
  }

  /** Stops the clock until every pause has been resumed. */
  pause(): void {
    this.#paused++;
    clearTimeout(this.#timer);
    this.#timer = undefined;
  }

  /** Ends one pause; the budget starts over when none is left. */
  resume(): void {
    this.#paused = Math.max(0, this.#paused - 1);
    if (this.#paused === 0) this.#arm();
  }

  #arm(): void {
    clearTimeout(this.#timer);
    if (this.#expired || this.#disposed || !Number.isFinite(this.#ms)) return;
    this.#timer = setTimeout(() => {
      this.#expired = true;
      this.#onExpire();
    }, this.#ms);
  }

  [Symbol.dispose](): void {
    this.#disposed = true;
    clearTimeout(this.#timer);
  }
}
