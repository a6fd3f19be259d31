import { BackgroundErrors } from './background-errors.js';

/**
 * `setInterval` (unref'd) for background ticks nobody awaits: progress heartbeats, polls. A throw in a timer would end
 * the process; here it stops the interval and goes to `onBug` once (a call's `reportError`, a resource's background
 * path), or without one to a process warning. Returns the timer, for `clearInterval`.
 */
export function guardedInterval(tick: () => void, ms: number, onBug?: (error: unknown) => void): NodeJS.Timeout {
  const timer = setInterval(() => {
    try {
      tick();
    } catch (error) {
      clearInterval(timer);
      (onBug ?? ((bug: unknown) => new BackgroundErrors().report(bug)))(error);
    }
  }, ms);
  return timer.unref();
}
