import { readdirSync, readFileSync } from 'node:fs';

/** A process seen in /proc. */
export interface ProcessInfo {
  readonly pid: number;
  readonly ppid: number;
  readonly command: string;
}

/** Every live process on the machine (Linux /proc), zombies excluded. */
export function listProcesses(): ProcessInfo[] {
  const processes: ProcessInfo[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const close = stat.lastIndexOf(')');
      const fields = stat.slice(close + 2).split(' ');
      if (fields[0] === 'Z') continue;
      const command = readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0').join(' ').trim();
      processes.push({ pid: Number(entry), ppid: Number(fields[1]), command });
    } catch {
      // The process ended while we read it.
    }
  }
  return processes;
}

/** The live descendants of a process. */
export function descendantsOf(pid: number): ProcessInfo[] {
  const all = listProcesses();
  const found: ProcessInfo[] = [];
  const queue = [pid];
  while (queue.length > 0) {
    const parent = queue.shift();
    for (const p of all) {
      if (p.ppid === parent) {
        found.push(p);
        queue.push(p.pid);
      }
    }
  }
  return found;
}

/** Live processes whose command line contains `marker` (use a unique temp path as the marker). */
export function processesMatching(marker: string): ProcessInfo[] {
  return listProcesses().filter((p) => p.pid !== process.pid && p.command.includes(marker));
}

/** Waits until no live process's command line contains `marker`, or the time runs out; returns the survivors. */
export async function waitForNoProcesses(marker: string, timeoutMs = 5000): Promise<ProcessInfo[]> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const left = processesMatching(marker);
    if (left.length === 0 || Date.now() > deadline) return left;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
