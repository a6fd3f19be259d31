import { afterEach, describe, expect, it, vi } from 'vitest';
import { CellProgress } from '../src/cell-progress.js';

afterEach(() => {
  vi.useRealTimers();
});

// Issue 26, item 6: a silent cell's heartbeat runs in a timer, where a throw is an uncaught exception that ends the
// harness's process. Nothing there is expected to throw (the registry guards the harness's progress listener), so the
// bug is injected as a report callback that throws, standing for a bug in the heartbeat itself; fake timers.
describe('a bug in a running cell’s heartbeat (injected: the report callback throws; fake timers)', () => {
  it('is told once to onBug and the heartbeat stops', () => {
    vi.useFakeTimers();
    const bug = new TypeError("Cannot read properties of undefined (reading 'message')");
    let reports = 0;
    const bugs: unknown[] = [];
    using _ = new CellProgress(
      () => {
        reports++;
        throw bug;
      },
      'Python',
      (error) => bugs.push(error),
    );
    // Without the guard the first tick throws out of the timer (vitest reports it as an uncaught exception).
    vi.advanceTimersByTime(10_000);
    expect(reports).toBe(1);
    expect(bugs).toEqual([bug]);
  });
});
