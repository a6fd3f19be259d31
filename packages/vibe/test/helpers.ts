import { copyFileSync, existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createRegistry } from '@agent-tools/core';
import { isLive, listProcesses } from '@agent-tools/core/process';
import { type ProcessInfo, type TempDir, tempDir, waitForNoProcesses } from '@agent-tools/test-utils';
import { type ProcessRunnerOptions, processRunner, vibeTools, WorkerList } from '../src/index.js';

const fixtures = join(dirname(fileURLToPath(import.meta.url)), 'fixtures');

/** The fixture scripts copied into a fresh temporary directory, whose path marks every process started from it. */
export function scripts(): TempDir & { script(name: string): string } {
  const dir = tempDir({}, 'agent-tools-vibe-');
  for (const file of readdirSync(fixtures)) copyFileSync(join(fixtures, file), dir.join(file));
  return Object.assign(dir, { script: (name: string) => dir.join(`${name}.sh`) });
}

/**
 * Removes each directory (and empties `dirs`) once no process started from it runs, at most 5 s each; returns the
 * processes that still ran. Every directory is removed, even when something still ran from it.
 */
export async function removeWhenIdle(dirs: TempDir[]): Promise<ProcessInfo[]> {
  const survivors: ProcessInfo[] = [];
  for (const dir of dirs.splice(0)) {
    survivors.push(...(await waitForNoProcesses(dir.path, 5000)));
    dir.remove();
  }
  return survivors;
}

/** Live processes of a process group (Linux /proc), zombies excluded. */
export function groupMembers(pgid: number): number[] {
  return listProcesses()
    .filter((entry) => entry.pgid === pgid && isLive(entry))
    .map((entry) => entry.pid);
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** What the fake agent CLI records of a session it served (see fixtures/fake-agent.mjs). */
export interface RecordedSession {
  session: string;
  prompts: string[];
  env: { argv: string[]; surface?: string; tiers?: string; vibeSession?: string }[];
}

/**
 * A run whose workers are the fake agent CLI in a fresh fixture directory (pushed to `dirs` for cleanup), with the
 * process runner configured by `options` (the agent's path given); `sessions()` reads what the agent recorded.
 */
export function fakeAgentRun(
  dirs: ReturnType<typeof scripts>[],
  options: (agent: string) => Omit<ProcessRunnerOptions, 'env'>,
) {
  const dir = scripts();
  dirs.push(dir);
  const agent = dir.join('fake-agent.mjs');
  const workerList = new WorkerList({
    runner: processRunner({ killGraceMs: 300, ...options(agent), env: { FAKE_AGENT_STATE: dir.join('state') } }),
    cwd: dir.path,
  });
  const registry = createRegistry({ resources: { cwd: dir.path, workerList }, factories: [vibeTools] });
  const sessions = (): RecordedSession[] =>
    existsSync(dir.join('state'))
      ? readdirSync(dir.join('state')).map((f) => JSON.parse(readFileSync(dir.join('state', f), 'utf8')) as RecordedSession)
      : [];
  return { dir, agent, registry, workerList, sessions };
}
