/** A line of the server's own log (window/logMessage, window/showMessage), kept for status. */
export interface ServerLogLine {
  readonly type: number;
  readonly message: string;
}

/** A notification or request of a server's own protocol (`eslint/status`), kept for what it says about documents. */
export interface ServerEvent {
  readonly method: string;
  readonly params: unknown;
}

const MAX_EVENTS = 100;
const MAX_PARAMS_CHARS = 4000;

/**
 * The recent notifications and requests a server sent that LSP does not define, bounded; a configuration's
 * {@link ProblemReader} reads them (ESLint reports a configuration it cannot load only this way and in its log).
 */
export class ServerEvents {
  readonly #events: ServerEvent[] = [];

  record(method: string, params: unknown): void {
    // An oversized payload is kept as its size only: these are read for short status facts, never replayed.
    const size = JSON.stringify(params ?? null)?.length ?? 0;
    this.#events.push({ method, params: size > MAX_PARAMS_CHARS ? { truncated: size } : params });
    if (this.#events.length > MAX_EVENTS) this.#events.splice(0, this.#events.length - MAX_EVENTS);
  }

  get all(): readonly ServerEvent[] {
    return this.#events;
  }
}
