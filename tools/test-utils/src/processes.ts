import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { isLive, listProcesses as procTable } from '@agent-tools/core/process';

/** A process seen in /proc. */
export interface ProcessInfo {
  readonly pid: number;
  readonly ppid: number;
  readonly command: string;
}

/** Every live process on the machine (Linux /proc), zombies excluded. */
export function listProcesses(): ProcessInfo[] {
  const processes: ProcessInfo[] = [];
  for (const entry of procTable()) {
    if (!isLive(entry)) continue;
    try {
      const command = readFileSync(`/proc/${entry.pid}/cmdline`, 'utf8').split('\0').join(' ').trim();
      processes.push({ pid: entry.pid, ppid: entry.ppid, command });
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

/** Whether a process is one of core's keepers (the supervisor above each process tree), not a tool's own process. */
export function isKeeper(process: ProcessInfo): boolean {
  return process.command.includes(' agent-tools-keeper ');
}

/** Live processes whose command line contains `marker` (use a unique temp path as the marker). Keepers included. */
export function processesMatching(marker: string): ProcessInfo[] {
  return listProcesses().filter((p) => p.pid !== process.pid && p.command.includes(marker));
}

/** Waits until no live process's command line contains `marker`, or the time runs out; returns the survivors. */
export async function waitForNoProcesses(marker: string, timeoutMs = 5000): Promise<ProcessInfo[]> {
  return waitUntilNone(() => processesMatching(marker), timeoutMs);
}

/** An environment variable that marks every process started under it, whatever its parent or session becomes. */
export interface EnvMarker {
  readonly name: string;
  readonly value: string;
  /** `process.env` plus the marker: the environment to start a stand-in harness with. */
  readonly env: NodeJS.ProcessEnv;
}

/** A fresh {@link EnvMarker}. */
export function envMarker(): EnvMarker {
  const value = randomUUID();
  return { name: 'AGENT_TOOLS_TEST_MARK', value, env: { ...process.env, AGENT_TOOLS_TEST_MARK: value } };
}

/**
 * Live processes (zombies excluded) whose environment holds the marker, read from /proc: found without any of
 * our own bookkeeping, so an escaped or re-parented process is found too.
 */
export function markedProcesses(marker: EnvMarker): ProcessInfo[] {
  const needle = `${marker.name}=${marker.value}`;
  return listProcesses().filter((p) => {
    if (p.pid === process.pid) return false;
    try {
      return readFileSync(`/proc/${p.pid}/environ`, 'utf8').split('\0').includes(needle);
    } catch {
      return false;
    }
  });
}

/** Waits until no marked process is alive, or the time runs out; returns the survivors. */
export function waitForNoMarked(marker: EnvMarker, timeoutMs = 5000): Promise<ProcessInfo[]> {
  return waitUntilNone(() => markedProcesses(marker), timeoutMs);
}

async function waitUntilNone(find: () => ProcessInfo[], timeoutMs: number): Promise<ProcessInfo[]> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const left = find();
    if (left.length === 0 || Date.now() > deadline) return left;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
