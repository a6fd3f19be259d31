import { hasProcFs, isLive, type ProcessEntry, readProcess, signalProcess } from './proc-table.js';

/**
 * Processes that are not (or may stop being) descendants of a tree but end with it, such as the debuggee a debug
 * adapter reports. Each pid is remembered with its start time when it is added, so a pid the kernel later hands
 * to another process is never signalled; one that has ended is forgotten.
 */
export class TrackedProcesses {
  readonly #known = new Map<number, string>();

  /** Adds a process by pid (ignored when it is not running). */
  track(pid: number | undefined): void {
    if (!pid || pid <= 0 || this.#known.has(pid)) return;
    const entry = readProcess(pid);
    if (isLive(entry)) this.#known.set(pid, entry.startTime);
    // Without /proc there is no start time to check; the pid is trusted as it is.
    else if (!hasProcFs) this.#known.set(pid, '');
  }

  /** Whether `pid` is one of them. */
  has(pid: number): boolean {
    return this.#known.has(pid);
  }

  /** The ones still running. */
  alive(): ProcessEntry[] {
    const alive: ProcessEntry[] = [];
    for (const [pid, startTime] of this.#known) {
      const entry = readProcess(pid);
      if (isLive(entry) && entry.startTime === startTime) alive.push(entry);
      else if (hasProcFs) this.#known.delete(pid);
    }
    return alive;
  }

  /** Sends `signal` to each one still running. */
  signal(signal: NodeJS.Signals): void {
    for (const [pid, startTime] of this.#known) {
      if (startTime) {
        if (!signalProcess({ pid, startTime }, signal)) this.#known.delete(pid);
        continue;
      }
      try {
        process.kill(pid, signal);
      } catch {
        // ESRCH or EPERM: the pid is gone or is no longer the process we started.
        this.#known.delete(pid);
      }
    }
  }

  /** Ends them: SIGTERM, then SIGKILL to what is left after `graceMs`. */
  async stop(graceMs: number): Promise<void> {
    if (this.#known.size === 0) return;
    this.signal('SIGTERM');
    if (await this.#waitGone(graceMs)) return;
    this.signal('SIGKILL');
    await this.#waitGone(2000);
  }

  async #waitGone(ms: number): Promise<boolean> {
    const deadline = Date.now() + ms;
    while (this.alive().length > 0) {
      if (Date.now() >= deadline) return false;
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    return true;
  }
}
