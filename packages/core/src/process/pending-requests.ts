import { onAbort } from '../on-abort.js';

/** How one waiting request ends when no answer comes, and what runs once it has ended. */
export interface PendingRequestOptions {
  /** How long the answer may take. */
  readonly timeoutMs: number;
  /** Aborting it fails the request with {@link PendingRequestOptions.cancelled}'s error. */
  readonly signal?: AbortSignal | undefined;
  /** The error of a request that was not answered in time. */
  timedOut(): Error;
  /** The error of a request whose signal aborted: the package's own `cancelled` error, as for every other call. */
  cancelled(): Error;
  /**
   * Runs once when the request has settled, however: `$/cancelRequest` for an abandoned LSP request, for example.
   */
  settled?(how: PendingOutcome): void;
}

/** How a waiting request settled. */
export type PendingOutcome = 'answered' | 'failed' | 'timeout' | 'cancelled' | 'closed';

interface Waiting {
  settle(how: PendingOutcome, outcome: { value: unknown } | { error: unknown }): void;
}

/**
 * The table of requests waiting for an answer over one connection (LSP's JSON-RPC, DAP), beside the Content-Length
 * reader they share: each request has a timeout and may have an AbortSignal, settles once, and closing the
 * connection fails every request still waiting with the close's error, as do requests made after it.
 */
export class PendingRequests<K> {
  readonly #waiting = new Map<K, Waiting>();
  #closed: ((key: K) => Error) | undefined;

  /** Requests waiting for an answer. */
  get size(): number {
    return this.#waiting.size;
  }

  /** Whether the table was closed. */
  get closed(): boolean {
    return this.#closed !== undefined;
  }

  /**
   * Waits for the answer to request `key` (register it before sending the request, so an answer cannot come
   * first). Fails at once when the table is closed or the signal already aborted.
   */
  wait(key: K, options: PendingRequestOptions): Promise<unknown> {
    if (this.#closed) return Promise.reject(this.#closed(key));
    if (options.signal?.aborted) {
      options.settled?.('cancelled');
      return Promise.reject(options.cancelled());
    }
    return new Promise<unknown>((resolve, reject) => {
      const { signal } = options;
      let stopListening = (): void => {};
      const timer = setTimeout(() => waiting.settle('timeout', { error: options.timedOut() }), options.timeoutMs);
      const waiting: Waiting = {
        settle: (how, outcome) => {
          if (this.#waiting.get(key) !== waiting) return;
          this.#waiting.delete(key);
          clearTimeout(timer);
          stopListening();
          options.settled?.(how);
          if ('value' in outcome) resolve(outcome.value);
          else reject(outcome.error);
        },
      };
      this.#waiting.set(key, waiting);
      // One listener per signal however many requests wait on it (see onAbort): the signal is the harness's.
      if (signal) stopListening = onAbort(signal, () => waiting.settle('cancelled', { error: options.cancelled() }));
    });
  }

  /** Answers request `key`; false when it is not waiting (it timed out, was cancelled, or was never sent). */
  resolve(key: K, value: unknown): boolean {
    const waiting = this.#waiting.get(key);
    waiting?.settle('answered', { value });
    return waiting !== undefined;
  }

  /** Fails request `key` with `error`; false when it is not waiting. */
  reject(key: K, error: unknown): boolean {
    const waiting = this.#waiting.get(key);
    waiting?.settle('failed', { error });
    return waiting !== undefined;
  }

  /** Fails every waiting request with `error(key)`, and every later one at once. Only the first close counts. */
  close(error: (key: K) => Error): void {
    if (this.#closed) return;
    this.#closed = error;
    for (const [key, waiting] of [...this.#waiting]) waiting.settle('closed', { error: error(key) });
  }
}
