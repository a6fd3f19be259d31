import { describe, expect, it } from 'vitest';
import { PendingRequests } from '../../src/process.js';

const errors = {
  timedOut: () => new Error('timed out'),
  cancelled: () => new Error('cancelled'),
};

describe('PendingRequests', () => {
  it('settles each request once: answered, failed, timed out or cancelled, and says how', async () => {
    const table = new PendingRequests<number>();
    const how: string[] = [];
    const settled = (h: string): void => {
      how.push(h);
    };
    const answered = table.wait(1, { timeoutMs: 10_000, ...errors, settled });
    const failed = table.wait(2, { timeoutMs: 10_000, ...errors, settled });
    const late = table.wait(3, { timeoutMs: 20, ...errors, settled });
    const controller = new AbortController();
    const aborted = table.wait(4, { timeoutMs: 10_000, signal: controller.signal, ...errors, settled });
    expect(table.size).toBe(4);
    expect(table.resolve(1, 'one')).toBe(true);
    expect(table.resolve(1, 'again')).toBe(false);
    expect(table.reject(2, new Error('refused'))).toBe(true);
    controller.abort();
    await expect(answered).resolves.toBe('one');
    await expect(failed).rejects.toThrow('refused');
    await expect(aborted).rejects.toThrow('cancelled');
    await expect(late).rejects.toThrow('timed out');
    expect(table.resolve(3, 'too late')).toBe(false);
    expect(how).toEqual(['answered', 'failed', 'cancelled', 'timeout']);
    expect(table.size).toBe(0);
  });

  it('fails every waiting request when closed, and every later one at once, with the close error', async () => {
    const table = new PendingRequests<string>();
    const a = table.wait('a', { timeoutMs: 10_000, ...errors });
    const b = table.wait('b', { timeoutMs: 10_000, ...errors });
    table.close((key) => new Error(`closed while ${key} waited`));
    table.close(() => new Error('second close'));
    await expect(a).rejects.toThrow('closed while a waited');
    await expect(b).rejects.toThrow('closed while b waited');
    await expect(table.wait('c', { timeoutMs: 10_000, ...errors })).rejects.toThrow('closed while c waited');
    expect(table.closed).toBe(true);
  });

  it('refuses a request whose signal already aborted, and puts one listener on a signal however many wait on it', async () => {
    const table = new PendingRequests<number>();
    const controller = new AbortController();
    controller.abort();
    await expect(table.wait(1, { timeoutMs: 10_000, signal: controller.signal, ...errors })).rejects.toThrow('cancelled');
    const shared = new AbortController();
    let added = 0;
    const addEventListener = shared.signal.addEventListener.bind(shared.signal);
    shared.signal.addEventListener = ((...args: Parameters<typeof addEventListener>) => {
      added++;
      return addEventListener(...args);
    }) as typeof shared.signal.addEventListener;
    const waits = Array.from({ length: 40 }, (_, i) => table.wait(i + 10, { timeoutMs: 10_000, signal: shared.signal, ...errors }));
    expect(added).toBe(1);
    shared.abort();
    const outcomes = await Promise.allSettled(waits);
    expect(outcomes.every((o) => o.status === 'rejected')).toBe(true);
  });
});
