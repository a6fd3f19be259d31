import { descendants, hasProc, readProc } from './proc.js';

/**
 * Remembers every process a session started (the adapter, its launcher, the debuggee, a debug server), so
 * they can all be killed even after the adapter died and its children were re-parented away from it. A pid
 * is only signalled while its start time still matches, so a reused pid is never hit.
 */
export class ProcessTracker {
  readonly #known = new Map<number, string>();

  /** Records one process (the debuggee's pid from a `process` event, say). */
  track(pid: number | undefined): void {
    if (!pid || pid <= 0 || this.#known.has(pid)) return;
    const entry = readProc(pid);
    if (entry) this.#known.set(pid, entry.startTime);
  }

  /** Records `pid` and all its current descendants. */
  trackTree(pid: number | undefined): void {
    if (!pid || !hasProc) return;
    this.track(pid);
    for (const entry of descendants(pid)) {
      if (!this.#known.has(entry.pid)) this.#known.set(entry.pid, entry.startTime);
    }
  }

  /** The recorded processes that are still alive. */
  alive(): number[] {
    const alive: number[] = [];
    for (const [pid, startTime] of this.#known) {
      const entry = readProc(pid);
      if (entry && entry.startTime === startTime) alive.push(pid);
      else this.#known.delete(pid);
    }
    return alive;
  }

  /** Sends `signal` to every recorded live process; returns how many were signalled. */
  signalAll(signal: NodeJS.Signals): number {
    let count = 0;
    for (const pid of this.alive()) {
      try {
        process.kill(pid, signal);
        count++;
      } catch {
        // It ended between the check and the signal.
      }
    }
    return count;
  }
}
