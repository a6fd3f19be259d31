import { readdirSync, readFileSync } from 'node:fs';

const HAS_PROC = (() => {
  try {
    readFileSync('/proc/self/stat');
    return true;
  } catch {
    return false;
  }
})();

/**
 * Whether a process of the group is still alive. A killed process whose parent already exited stays a zombie
 * until init reaps it, which some inits do only every second or two; it counts as gone, so on Linux the group's
 * members are read from /proc and zombies skipped.
 */
export function groupAlive(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
  } catch (error) {
    // EPERM means a member exists but belongs to someone else: alive for our purposes.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
  return HAS_PROC ? hasLiveMember(pgid) : true;
}

function hasLiveMember(pgid: number): boolean {
  for (const entry of readdirSync('/proc')) {
    if (entry.charCodeAt(0) > 57) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      // Fields after the command: state, ppid, pgrp.
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ', 3);
      if (Number(fields[2]) === pgid && fields[0] !== 'Z' && fields[0] !== 'X') return true;
    } catch {
      // Ended while we looked.
    }
  }
  return false;
}

/** Sends a signal to every process of a group; false when the group is gone. */
export function signalGroup(pgid: number, signal: NodeJS.Signals): boolean {
  try {
    process.kill(-pgid, signal);
    return true;
  } catch {
    return false;
  }
}

/** Waits until the group has no live member or `ms` pass; true when it emptied. */
export async function waitGroupGone(pgid: number, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (groupAlive(pgid)) {
    if (Date.now() >= deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  return true;
}

/**
 * Stops a whole process group: SIGTERM so an agent can save its state, then SIGKILL for whatever is left after
 * `graceMs` (an agent that traps SIGTERM, or a child it started). Resolves once the group is gone, or after a
 * final bounded wait.
 */
export async function killGroup(pgid: number, graceMs: number): Promise<void> {
  if (!signalGroup(pgid, 'SIGTERM')) return;
  if (await waitGroupGone(pgid, graceMs)) return;
  signalGroup(pgid, 'SIGKILL');
  await waitGroupGone(pgid, 2000);
}
