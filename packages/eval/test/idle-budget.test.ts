import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { CellCeiling } from '../src/cell-ceiling.js';
import { IdleBudget } from '../src/idle-budget.js';

describe('IdleBudget', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('runs out after the budget without activity', () => {
    const expire = vi.fn();
    using budget = new IdleBudget(1000, expire);
    vi.advanceTimersByTime(999);
    expect(expire).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(expire).toHaveBeenCalledOnce();
    expect(budget.expired).toBe(true);
  });

  it('starts over on activity', () => {
    const expire = vi.fn();
    using budget = new IdleBudget(1000, expire);
    vi.advanceTimersByTime(800);
    budget.touch();
    vi.advanceTimersByTime(800);
    expect(expire).not.toHaveBeenCalled();
    vi.advanceTimersByTime(200);
    expect(expire).toHaveBeenCalledOnce();
  });

  it('does not run while paused, however long, and starts over on resume', () => {
    const expire = vi.fn();
    using budget = new IdleBudget(1000, expire);
    vi.advanceTimersByTime(900);
    budget.pause();
    budget.pause();
    vi.advanceTimersByTime(60_000);
    budget.resume();
    vi.advanceTimersByTime(60_000);
    expect(expire).not.toHaveBeenCalled();
    budget.resume();
    vi.advanceTimersByTime(999);
    expect(expire).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(expire).toHaveBeenCalledOnce();
  });

  it('stops when disposed', () => {
    const expire = vi.fn();
    {
      using _budget = new IdleBudget(1000, expire);
    }
    vi.advanceTimersByTime(5000);
    expect(expire).not.toHaveBeenCalled();
  });
});

describe('CellCeiling', () => {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance'] });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('runs out after the running time, whatever happens meanwhile, not counting pauses', () => {
    const expire = vi.fn();
    using ceiling = new CellCeiling(1000, expire);
    vi.advanceTimersByTime(600);
    ceiling.pause();
    ceiling.pause();
    vi.advanceTimersByTime(5000);
    ceiling.resume();
    vi.advanceTimersByTime(5000);
    expect(expire).not.toHaveBeenCalled();
    ceiling.resume();
    vi.advanceTimersByTime(399);
    expect(expire).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(expire).toHaveBeenCalledOnce();
  });

  it('keeps a ceiling longer than a timer can wait (2^31 ms, about 24.8 days) instead of running out at once', () => {
    const expire = vi.fn();
    const days = 24 * 3600_000;
    // setTimeout takes a longer delay as 1 ms: every cell was stopped at once "after running 40 days".
    using _ = new CellCeiling(40 * days, expire);
    vi.advanceTimersByTime(39 * days);
    expect(expire).not.toHaveBeenCalled();
    vi.advanceTimersByTime(days);
    expect(expire).toHaveBeenCalledOnce();
  });
});

