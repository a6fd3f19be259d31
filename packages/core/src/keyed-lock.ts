/**
 * One-at-a-time execution per key. Tasks with the same key run in arrival order; different keys do not wait
 * for each other.
 */
export class KeyedLock {
  readonly #tails = new Map<string, Promise<void>>();

  /** Runs `task` once every earlier task of `key` has settled, and holds the key until it settles. */
  async run<T>(key: string, task: () => Promise<T>): Promise<T> {
    const previous = this.#tails.get(key) ?? Promise.resolve();
    const current = previous.then(task);
    const tail = current.then(
      () => undefined,
      () => undefined,
    );
    this.#tails.set(key, tail);
    void tail.then(() => {
      if (this.#tails.get(key) === tail) this.#tails.delete(key);
    });
    return current;
  }

  /** Whether a task of `key` is running or waiting. */
  busy(key: string): boolean {
    return this.#tails.has(key);
  }
}
