import type { ToolProgress } from '@agent-tools/core';
import { collapseCarriageReturns, formatDuration } from '@agent-tools/core/internal';

/** How much of a running cell's newest output a progress report carries. */
const TAIL_CHARS = 2000;
/** How often a cell that prints nothing still says it is running. */
const HEARTBEAT_MS = 2000;

/**
 * What a running cell tells the caller: how long it has run, and the tail of what it printed, with carriage-return
 * progress bars shown at their latest state. Reports on every output (the registry throttles them) and on a
 * heartbeat while the cell is silent.
 */
export class CellProgress implements Disposable {
  readonly #report: ((progress: ToolProgress) => void) | undefined;
  readonly #language: string;
  readonly #started = performance.now();
  readonly #timer: NodeJS.Timeout | undefined;
  #tail = '';

  constructor(report: ((progress: ToolProgress) => void) | undefined, language: string) {
    this.#report = report;
    this.#language = language;
    if (report) this.#timer = setInterval(() => this.#send(), HEARTBEAT_MS).unref();
  }

  /** Printed text, as it arrives. */
  output(text: string): void {
    if (!this.#report) return;
    this.#tail = (this.#tail + text).slice(-TAIL_CHARS);
    this.#send();
  }

  #send(): void {
    const seconds = Math.floor((performance.now() - this.#started) / 1000);
    const output = collapseCarriageReturns(this.#tail).replace(/^\n+/, '').trimEnd();
    this.#report?.({
      message: `${this.#language} cell running for ${formatDuration(seconds * 1000, 's')}${output ? '' : ', no output yet'}`,
      ...(output ? { output } : {}),
    });
  }

  [Symbol.dispose](): void {
    clearInterval(this.#timer);
  }
}
