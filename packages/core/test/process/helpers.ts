import { type ChildProcess, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
// Core cannot depend on @agent-tools/test-utils (it depends on core): its helper that imports nothing is used from source.
import { waitUntil } from '../../../../tools/test-utils/src/wait-until.js';
import { listProcesses } from '../../src/process/proc-table.js';
import { isLive, readProcess } from '../../src/process.js';

/** A unique environment variable: every process that inherits it is found through /proc, whatever its parent. */
export function envMarker(): { readonly name: string; readonly value: string; readonly env: NodeJS.ProcessEnv } {
  const value = randomUUID();
  return { name: 'AGENT_TOOLS_TEST_MARK', value, env: { ...process.env, AGENT_TOOLS_TEST_MARK: value } };
}

/** Live processes (zombies excluded) whose environment holds `name=value`, read from /proc. */
export function markedProcesses(marker: { readonly name: string; readonly value: string }): number[] {
  const needle = `${marker.name}=${marker.value}`;
  return listProcesses()
    .filter((entry) => isLive(entry) && entry.pid !== process.pid)
    .filter((entry) => {
      try {
        return readFileSync(`/proc/${entry.pid}/environ`, 'utf8').split('\0').includes(needle);
      } catch {
        return false;
      }
    })
    .map((entry) => entry.pid);
}

/** Live processes (zombies excluded) whose command line holds `tag`: found even after they cleared their environment. */
export function taggedProcesses(tag: string): number[] {
  return listProcesses()
    .filter((entry) => isLive(entry) && entry.pid !== process.pid)
    .filter((entry) => {
      try {
        return readFileSync(`/proc/${entry.pid}/cmdline`, 'utf8').includes(tag);
      } catch {
        return false;
      }
    })
    .map((entry) => entry.pid);
}

/** Polls until no marked process is alive or `ms` pass; returns the survivors. */
export function waitNoMarked(marker: { readonly name: string; readonly value: string }, ms: number): Promise<number[]> {
  return waitNone(() => markedProcesses(marker), ms);
}

/** Polls `find` until it finds nothing or `ms` pass; returns what it found last. */
export async function waitNone(find: () => number[], ms: number): Promise<number[]> {
  const deadline = Date.now() + ms;
  for (;;) {
    const left = find();
    if (left.length === 0 || Date.now() > deadline) return left;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** SIGKILLs what a failed check left, so it leaks nothing into the next test. */
export function killAll(pids: readonly number[]): void {
  for (const pid of pids) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // Already gone.
    }
  }
}

/** Whether a pid runs (zombies count as gone). */
export function running(pid: number): boolean {
  return isLive(readProcess(pid));
}

/** Reads the first line a child prints to stdout. */
export function firstLine(child: ChildProcess): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = '';
    child.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
      text += chunk;
      const end = text.indexOf('\n');
      if (end >= 0) resolve(text.slice(0, end));
    });
    child.once('exit', (code) => reject(new Error(`exited with ${code} before printing: ${text}`)));
  });
}

/** Starts a stand-in harness from fixtures/ (default tree-harness.mjs). */
export function startHarness(env: NodeJS.ProcessEnv, fixture = 'tree-harness.mjs', args: readonly string[] = []): ChildProcess {
  const script = new URL(`./fixtures/${fixture}`, import.meta.url).pathname;
  return spawn(process.execPath, [script, ...args], { env, stdio: ['pipe', 'pipe', 'inherit'] });
}

/** A fresh tag to put in the command lines of a test's processes. */
export function freshTag(): string {
  return `qa-${randomUUID()}`;
}

/** Waits until at least `count` tagged processes run; throws with what it saw after `ms`. */
export async function untilTagged(tag: string, count: number, ms = 20_000): Promise<number> {
  const deadline = Date.now() + ms;
  for (;;) {
    const seen = taggedProcesses(tag).length;
    if (seen >= count) return seen;
    if (Date.now() > deadline) throw new Error(`only ${seen} of ${count} tagged processes started`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/** Polls `check` until it holds; throws after `ms` (test-utils' {@link waitUntil}, with room for process starts). */
export function until(check: () => boolean, ms = 20_000): Promise<void> {
  return waitUntil(check, ms);
}
