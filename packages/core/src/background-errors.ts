/** How many distinct bugs a resource remembers having told. */
const MAX_TOLD = 200;

/** Where a bug thrown outside any call is told: a run's `reportError` (see `FactoryRun`), or a harness's own logger. */
export type BackgroundReporter = (error: unknown) => void;

/**
 * The one path of a resource's bugs outside any call (a language server's notification handler, a debug adapter's
 * event, a kernel message, a timer, a worker's error while no search waits): nobody awaits them, so a throw there
 * would crash the process (an event emitter's listener) or go silent (a `.catch(() => {})`). Such handlers run
 * through {@link guard} or {@link watch}, and what they throw is reported to every run whose factory subscribed its
 * `run.reportError` (the registry tells `onError(error, { phase: 'background', factory })` once). With no run
 * subscribed, it goes to `fallback` (a harness's logger given to the resource) or else to a process warning: never
 * silent, never fatal. Everything passed here is reported, AgentToolsErrors included: there is no answer to make.
 */
export class BackgroundErrors {
  readonly #reporters = new Set<BackgroundReporter>();
  readonly #fallback: BackgroundReporter | undefined;
  /**
   * The bugs told so far, by name and stack: a handler that throws on every message (a new TypeError each time, from
   * the same place) is told once, not once per message. Bounded: past it, the oldest are forgotten.
   */
  readonly #told = new Set<string>();

  constructor(fallback?: BackgroundReporter) {
    this.#fallback = fallback;
  }

  /** Adds a reporter (a factory passes `run.reportError`); returns the function that removes it. */
  subscribe(reporter: BackgroundReporter): () => void {
    this.#reporters.add(reporter);
    return () => void this.#reporters.delete(reporter);
  }

  /**
   * Reports one bug, unless the same one (same name and stack) was told before; a reporter that throws has nowhere
   * to go and disturbs nothing.
   */
  report(error: unknown): void {
    if (error instanceof Error && error.stack) {
      const key = `${error.name}: ${error.stack}`;
      if (this.#told.has(key)) return;
      this.#told.add(key);
      if (this.#told.size > MAX_TOLD) this.#told.delete(this.#told.values().next().value as string);
    }
    const reporters = this.#reporters.size > 0 ? [...this.#reporters] : this.#fallback ? [this.#fallback] : [];
    if (reporters.length === 0) {
      process.emitWarning(error instanceof Error ? error : new Error(String(error)), { code: 'AGENT_TOOLS_BACKGROUND_ERROR' });
      return;
    }
    for (const reporter of reporters) {
      try {
        reporter(error);
      } catch {
        // The harness's logger failed; the background work does not depend on it.
      }
    }
  }

  /** `handler`, except that what it throws, or what the promise it returns rejects with, is reported instead. */
  guard<A extends unknown[]>(handler: (...args: A) => unknown): (...args: A) => void {
    return (...args) => {
      try {
        const value = handler(...args);
        if (value instanceof Promise) this.watch(value);
      } catch (error) {
        this.report(error);
      }
    };
  }

  /** Instead of `void promise` for background work: its rejection is reported, never left unhandled. */
  watch(promise: Promise<unknown>): void {
    promise.catch((error: unknown) => this.report(error));
  }
}
