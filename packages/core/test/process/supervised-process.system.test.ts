import { spawn } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { signalProcess } from '../../src/process/proc-table.js';
import { keeperStatus, readProcess, spawnSupervised } from '../../src/process.js';
import { envMarker, firstLine, markedProcesses, running, startHarness, until, waitNoMarked } from './helpers.js';

const cwd = process.cwd();
/**
 * Every way a descendant tries to get away: a new session, a re-parent, ignoring SIGTERM. Run by `sh`, not bash:
 * bash with a socket for stdin (Node's pipes) and no SHLVL (a harness not started from a shell, turbo) sources
 * ~/.bashrc, whose work a killed tree may leave half done.
 */
const ESCAPES = 'setsid sleep 600 & (sleep 601 &) ; (trap "" TERM; exec sleep 602) & ';

describe('spawnSupervised (real processes)', () => {
  it('runs under a keeper on this machine (Linux with /usr/bin/python3)', () => {
    expect(keeperStatus().python).toBe('/usr/bin/python3');
  });

  it('reports the command pid, its output, a bounded stderr tail and its exit code', async () => {
    const tree = spawnSupervised({
      command: 'sh',
      args: ['-c', 'echo out; for i in $(seq 1 500); do echo "err line $i" >&2; done; exit 3'],
      cwd,
      stderrTail: 40,
    });
    let out = '';
    tree.stdout?.on('data', (chunk: Buffer) => {
      out += chunk.toString();
    });
    const pid = await tree.started;
    expect(pid).toBeGreaterThan(0);
    expect(await tree.exited).toEqual({ code: 3, signal: null });
    expect(tree.exit).toEqual({ code: 3, signal: null });
    expect(out).toBe('out\n');
    const written = Array.from({ length: 500 }, (_, i) => `err line ${i + 1}\n`).join('');
    expect(tree.stderrTail).toBe(written.slice(-40));
    await tree.stop();
    expect(tree.ended).toBe(true);
    expect(tree.contained).toBe(true);
  });

  it('reports a signal death, a missing binary and a missing working directory as Node would', async () => {
    const killed = spawnSupervised({ command: 'sh', args: ['-c', 'kill -TERM $$'], cwd });
    expect(await killed.exited).toEqual({ code: null, signal: 'SIGTERM' });
    const missing = spawnSupervised({ command: 'agent-tools-no-such-binary', cwd });
    expect(await missing.exited).toEqual({ code: null, signal: null, spawnError: 'spawn agent-tools-no-such-binary ENOENT' });
    expect(await missing.started).toBeUndefined();
    const nowhere = spawnSupervised({ command: 'ls', cwd: '/agent-tools/no/such/dir' });
    expect(await nowhere.exited).toEqual({ code: null, signal: null, spawnError: 'spawn ls ENOENT' });
  });

  it('passes the environment through unchanged, LC_CTYPE included', async () => {
    const env = { PATH: process.env.PATH, LANG: 'C', AGENT_TOOLS_X: 'é ü' } as NodeJS.ProcessEnv;
    const tree = spawnSupervised({ command: 'sh', args: ['-c', 'env | sort'], cwd, env });
    let out = '';
    tree.stdout?.on('data', (chunk: Buffer) => {
      out += chunk.toString();
    });
    await tree.exited;
    await tree.stop();
    expect(out.split('\n').filter((line) => /^(LANG|LC_|AGENT_TOOLS_X|PYTHON)/.test(line))).toEqual(['AGENT_TOOLS_X=é ü', 'LANG=C']);
  });

  it('stop ends every descendant, escaped ones too, SIGKILL after the grace for one that ignores SIGTERM', async () => {
    const marker = envMarker();
    const tree = spawnSupervised({ command: 'sh', args: ['-c', `${ESCAPES} exec sleep 603`], cwd, env: marker.env, graceMs: 300 });
    await tree.started;
    // The keeper and the four processes of the script.
    await until(() => markedProcesses(marker).length === 5);
    // The escaped ones are still in the tree: the keeper is their ancestor.
    const inTree = tree.processes().map((p) => p.pid);
    expect(inTree.length).toBe(4);
    expect(markedProcesses(marker)).toEqual(expect.arrayContaining(inTree));
    await tree.stop();
    expect(markedProcesses(marker)).toEqual([]);
    expect(await tree.exited).toEqual({ code: null, signal: 'SIGTERM' });
  });

  it('ends what the command left behind when it exits by itself', async () => {
    const marker = envMarker();
    const tree = spawnSupervised({ command: 'sh', args: ['-c', `${ESCAPES} sleep 0.3; exit 0`], cwd, env: marker.env, graceMs: 300 });
    expect(await tree.exited).toEqual({ code: 0, signal: null });
    expect(await waitNoMarked(marker, 5000)).toEqual([]);
  });

  it('signal reaches escaped descendants; track adds an outside process that ends with the tree', async () => {
    const marker = envMarker();
    const outsider = spawn('sleep', ['604'], { env: marker.env, stdio: 'ignore', detached: true });
    const tree = spawnSupervised({ command: 'sh', args: ['-c', 'setsid sleep 605 & exec sleep 606'], cwd, env: marker.env });
    try {
      await tree.started;
      // The outsider, the keeper and its two sleeps.
      await until(() => markedProcesses(marker).length === 4);
      tree.track(outsider.pid);
      tree.signal('SIGTERM');
      expect(await waitNoMarked(marker, 5000)).toEqual([]);
    } finally {
      outsider.kill('SIGKILL');
      await tree.stop();
    }
  });

  it('never signals a pid whose start time no longer matches (a reused pid)', async () => {
    const sleeper = spawn('sleep', ['30'], { stdio: 'ignore' });
    const entry = readProcess(sleeper.pid as number);
    expect(entry?.state).toMatch(/[RS]/);
    expect(signalProcess({ pid: sleeper.pid as number, startTime: '1' }, 'SIGKILL')).toBe(false);
    expect(running(sleeper.pid as number)).toBe(true);
    expect(signalProcess(entry as { pid: number; startTime: string }, 'SIGKILL')).toBe(true);
    await new Promise((resolve) => sleeper.once('exit', resolve));
  });

  it('counts a zombie as gone', async () => {
    // `sleep 0` exits under an `exec sleep 30` that never reaps it: a zombie until its parent dies.
    const tree = spawnSupervised({ command: 'sh', args: ['-c', 'sleep 0 & exec sleep 30'], cwd });
    const pid = (await tree.started) as number;
    let zombie: number | undefined;
    await until(() => {
      // Until `sleep 0` has been forked and has exited: before that the child is missing or still running.
      zombie = findChild(pid);
      return zombie !== undefined && readProcess(zombie)?.state === 'Z';
    });
    expect(readProcess(zombie as number)?.state).toBe('Z');
    expect(running(zombie as number)).toBe(false);
    expect(tree.processes().map((p) => p.pid)).toEqual([pid]);
    await tree.stop();
  });
});

describe('a harness that dies without disposing (real processes, checked through /proc)', () => {
  it('SIGKILL: every tree it started, escaped descendants included, ends within 5 s', { timeout: 30_000 }, async () => {
    const marker = envMarker();
    const harness = startHarness(marker.env);
    try {
      const { pids } = JSON.parse(await firstLine(harness)) as { pids: number[] };
      expect(pids.length).toBe(8);
      // The harness, two keepers and eight processes carry the marker.
      expect(markedProcesses(marker).length).toBe(11);
    } finally {
      harness.kill('SIGKILL');
    }
    expect(await waitNoMarked(marker, 5000)).toEqual([]);
  });

  it('process.exit without dispose: the exit hook ends every tree', { timeout: 30_000 }, async () => {
    const marker = envMarker();
    const harness = startHarness({ ...marker.env, HARNESS_EXIT: '1' });
    await firstLine(harness);
    expect(await waitNoMarked(marker, 5000)).toEqual([]);
  });

  it('without a keeper (AGENT_TOOLS_KEEPER_PYTHON=off) the exit hook still ends the groups and what it saw', { timeout: 30_000 }, async () => {
    const marker = envMarker();
    const harness = startHarness({ ...marker.env, HARNESS_EXIT: '1', AGENT_TOOLS_KEEPER_PYTHON: 'off' });
    await firstLine(harness);
    expect(await waitNoMarked(marker, 5000)).toEqual([]);
  });
});

function findChild(parent: number): number | undefined {
  for (const name of readdirSync('/proc')) {
    const entry = /^\d+$/.test(name) ? readProcess(Number(name)) : undefined;
    if (entry?.ppid === parent) return entry.pid;
  }
  return undefined;
}
