import { copyFileSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type TempDir, tempDir } from '@agent-tools/test-utils';

const fixtures = join(dirname(fileURLToPath(import.meta.url)), 'fixtures');

/** The fixture scripts copied into a fresh temporary directory, whose path marks every process started from it. */
export function scripts(): TempDir & { script(name: string): string } {
  const dir = tempDir({}, 'agent-tools-vibe-');
  for (const file of readdirSync(fixtures)) copyFileSync(join(fixtures, file), dir.join(file));
  return Object.assign(dir, { script: (name: string) => dir.join(`${name}.sh`) });
}

/** Live processes of a process group (Linux /proc), zombies excluded. */
export function groupMembers(pgid: number): number[] {
  const members: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (fields[0] !== 'Z' && Number(fields[2]) === pgid) members.push(Number(entry));
    } catch {
      // Gone while we read it.
    }
  }
  return members;
}

/** Waits until `check` holds, polling briefly. */
export async function until(check: () => boolean, ms = 5000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await sleep(20);
  }
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
