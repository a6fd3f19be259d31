import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { createRegistry } from '../../src/index.js';
import { descendantsOf, isLive, spawnSupervised } from '../../src/process.js';

const cwd = process.cwd();

/** This process's zygote(s): its children running the keeper script (a keeper is its zygote's child, not ours). */
function zygotes(): number[] {
  return descendantsOf(process.pid)
    .filter((entry) => entry.ppid === process.pid && isLive(entry) && commandLine(entry.pid).includes('\0agent-tools-keeper\0'))
    .map((entry) => entry.pid);
}

function commandLine(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8');
  } catch {
    return '';
  }
}

async function oneTree(): Promise<void> {
  const tree = spawnSupervised({ command: 'true', cwd });
  expect(await tree.started).toBeDefined();
  await tree.exited;
  await tree.stop();
}

describe('the zygote lives as long as a run (real processes)', () => {
  it('stays between trees while a registry is alive, so a tree alone is a fork; the last dispose ends it', async () => {
    const run = createRegistry();
    await oneTree();
    const kept = zygotes();
    expect(kept).toHaveLength(1);
    await oneTree();
    expect(zygotes()).toEqual(kept);
    await run.dispose();
    expect(zygotes()).toEqual([]);
  });

  it('ends with the last tree when no run is alive, and only with the last of several runs', async () => {
    await oneTree();
    expect(zygotes()).toEqual([]);
    const a = createRegistry();
    const b = createRegistry();
    await oneTree();
    await a.dispose();
    expect(zygotes()).toHaveLength(1);
    await b.dispose();
    expect(zygotes()).toEqual([]);
  });
});
