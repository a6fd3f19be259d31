/**
 * What a long call says about itself while it runs. A report is a state, not a log entry: each one replaces the
 * previous, so a listener that shows only the latest (a status line, an AI SDK preliminary result) loses nothing,
 * and the registry may drop reports that come faster than a listener wants them.
 */
export interface ToolProgress {
  /** One line saying what the call is doing now: `cell running for 12 s`, `checked 120 of 400 files`. */
  readonly message: string;
  /** Units done so far, when the work is countable (files searched, files checked). */
  readonly progress?: number;
  /** Units in all, when known. */
  readonly total?: number;
  /** The latest output of the running work (the tail of a cell's printed text, a worker's last lines). */
  readonly output?: string;
}

/** A report as a caller's listener receives it: which tool made it, and through which calls. */
export interface ProgressEvent extends ToolProgress {
  /** The tool reporting: the tool called, or a tool it called in turn through `ctx.registry`. */
  readonly tool: string;
  /** The chain of calls from the one the listener was given to the reporting tool: `['eval', 'lsp']`. */
  readonly path: readonly string[];
}

/** Receives the progress of a call; passed as `onProgress` in the call's options. */
export type ProgressListener = (event: ProgressEvent) => void;

/** How often a call's listener hears from it at most, unless the registry is told otherwise. */
export const DEFAULT_PROGRESS_INTERVAL_MS = 250;

/**
 * Delivers one call's reports to its listener at most once per interval: the first at once, and the latest of a
 * burst when the interval has passed. Once the call has answered, nothing more is delivered (the result
 * supersedes any report still waiting). A listener that throws is reported to `onError` and never hurts the call.
 */
export class ProgressThrottle {
  readonly #listener: ProgressListener;
  readonly #intervalMs: number;
  readonly #base: number;
  readonly #onError: (error: unknown) => void;
  #last = Number.NEGATIVE_INFINITY;
  #pending: ProgressEvent | undefined;
  #timer: NodeJS.Timeout | undefined;
  #closed = false;

  /** `base`: how many calls up the chain lie above the call the listener was given (they are left out of paths). */
  constructor(listener: ProgressListener, intervalMs: number, base: number, onError: (error: unknown) => void) {
    this.#listener = listener;
    this.#intervalMs = intervalMs;
    this.#base = base;
    this.#onError = onError;
  }

  /** A report of the tool at the end of `path`, the whole chain of calls from the model's call down to it. */
  push(report: ToolProgress, path: readonly string[]): void {
    if (this.#closed) return;
    const event: ProgressEvent = { ...cleanProgress(report), tool: path.at(-1) ?? '', path: path.slice(this.#base) };
    const wait = this.#last + this.#intervalMs - performance.now();
    if (wait <= 0 && !this.#timer) {
      this.#deliver(event);
      return;
    }
    this.#pending = event;
    this.#timer ??= setTimeout(() => {
      this.#timer = undefined;
      const latest = this.#pending;
      this.#pending = undefined;
      if (latest && !this.#closed) this.#deliver(latest);
    }, Math.max(0, wait));
  }

  close(): void {
    this.#closed = true;
    this.#pending = undefined;
    clearTimeout(this.#timer);
    this.#timer = undefined;
  }

  #deliver(event: ProgressEvent): void {
    this.#last = performance.now();
    try {
      this.#listener(event);
    } catch (error) {
      this.#onError(error);
    }
  }
}

/**
 * A report as one line for a status line or a log: `eval › lsp: checked 120 of 400 files (30%)`. The output is
 * left out; a UI that has room shows it separately.
 */
export function formatProgress(event: ProgressEvent): string {
  const { progress, total } = event;
  let count = '';
  if (progress !== undefined && total !== undefined && total > 0) {
    count = ` (${Math.min(100, Math.floor((progress / total) * 100))}%)`;
  }
  const who = event.path.length > 0 ? event.path.join(' › ') : event.tool;
  return `${who}: ${event.message.replace(/\s+/g, ' ').trim()}${count}`;
}

/** A copy of a report with only the fields a report may have, so a tool cannot leak other keys to listeners. */
export function cleanProgress(progress: ToolProgress): ToolProgress {
  const { message, progress: done, total, output } = progress;
  return {
    message: String(message),
    ...(typeof done === 'number' && Number.isFinite(done) ? { progress: done } : {}),
    ...(typeof total === 'number' && Number.isFinite(total) ? { total } : {}),
    ...(typeof output === 'string' ? { output } : {}),
  };
}
