import { isLive, readProcess } from '@agent-tools/core/process';

/** Whether a process is alive (zombies count as gone), read from /proc. */
export function alive(pid: number): boolean {
  return isLive(readProcess(pid));
}

/** Waits until none of `pids` is alive; returns the survivors (empty when all ended within `ms`). */
export async function waitDead(pids: readonly number[], ms = 10_000): Promise<number[]> {
  const deadline = Date.now() + ms;
  for (;;) {
    const left = pids.filter(alive);
    if (left.length === 0 || Date.now() > deadline) return left;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
