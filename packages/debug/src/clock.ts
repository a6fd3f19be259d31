import { afterDelay } from '@agent-tools/core/internal';

/** A scheduled callback that can be cancelled. */
export interface ClockTimer {
  cancel(): void;
}

/**
 * Time as the supervisor sees it. Injectable so a test can expire a 30-minute session without waiting
 * 30 minutes: advance its `now()` and fire its timers.
 */
export interface Clock {
  /** Milliseconds since the epoch. */
  now(): number;
  /** Calls `callback` once after `ms` milliseconds. A real timer must not keep the process alive. */
  setTimer(callback: () => void, ms: number): ClockTimer;
}

/** The wall clock, with unref'd timers that hold any delay (`Infinity`: never; setTimeout fires those at once). */
export const systemClock: Clock = {
  now: () => Date.now(),
  setTimer(callback, ms) {
    return { cancel: afterDelay(ms, callback, { unref: true }) };
  },
};
