import type { ToolProgress } from '@agent-tools/core';
import { collapseCarriageReturns, formatDuration, guardedInterval } from '@agent-tools/core/internal';

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

  /** `onBug` hears a throw of the heartbeat (a throw in a timer would end the process); the heartbeat then stops. */
  constructor(report: ((progress: ToolProgress) => void) | undefined, language: string, onBug?: (error: unknown) => void) {
    this.#report = report;
    this.#language = language;
    if (!report) return;
    // Nothing here is expected to throw (the registry guards the harness's progress listener): a throw is a bug.
    this.#timer = guardedInterval(() => this.#send(), HEARTBEAT_MS, onBug);
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
