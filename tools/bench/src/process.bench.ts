import { spawn } from 'node:child_process';
import { createRegistry } from '@agent-tools/core';
import { spawnSupervised } from '@agent-tools/core/process';
import { measure, timing, timingTable } from './measure.js';

/**
 * core/process: what supervision costs. The reference is a bare `child_process.spawn` (own process group, as every
 * package used to start its processes) of the same command, waiting for it to exit; the supervised runs start it
 * under a keeper (Linux, Python 3) and with it off (`AGENT_TOOLS_KEEPER_PYTHON=off` is read once per process, so
 * that mode runs in a child process of its own). A keeper is forked by the process's zygote, which starts with the
 * first tree and stays while a run (a registry) is alive or a tree runs: timed alone inside a run (the harness's
 * case), with another tree running (as a run's language server is), each in turn with the reference (A B A B ...)
 * so load on the machine hits both alike, and alone outside any run (the zygote starts and retires every time).
 */
function bareSpawn(): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn('true', [], { stdio: ['pipe', 'pipe', 'pipe'], detached: true });
    child.on('error', reject);
    child.on('close', () => resolve());
  });
}

async function supervised(): Promise<void> {
  const tree = spawnSupervised({ command: 'true', cwd: process.cwd() });
  await tree.exited;
  await tree.stop();
}

async function supervisedStop(): Promise<void> {
  const tree = spawnSupervised({ command: 'sh', args: ['-c', 'setsid sleep 300 & sleep 300 & exec sleep 300'], cwd: process.cwd(), graceMs: 1000 });
  while (tree.processes().length < 3) await new Promise((resolve) => setTimeout(resolve, 5));
  await tree.stop();
}

/** Alternates two tasks, `runs` rounds after `warmup`, and times each. */
async function alternate(a: { label: string; task: () => Promise<void> }, b: { label: string; task: () => Promise<void> }, runs: number, warmup: number) {
  const samples: [number[], number[]] = [[], []];
  for (let i = 0; i < warmup + runs; i++) {
    for (const [index, { task }] of [a, b].entries()) {
      const start = performance.now();
      await task();
      if (i >= warmup) samples[index]?.push(performance.now() - start);
    }
  }
  return [timing(a.label, samples[0]), timing(b.label, samples[1])];
}

if (process.env['AGENT_TOOLS_BENCH_CHILD']) {
  const timing = await measure('spawnSupervised(true) + exit, keeper off (process group only)', supervised, 15, 2);
  console.log(JSON.stringify(timing));
} else {
  const keeperOff = await new Promise<string>((resolve, reject) => {
    const child = spawn(process.execPath, [new URL(import.meta.url).pathname], {
      env: { ...process.env, AGENT_TOOLS_BENCH_CHILD: '1', AGENT_TOOLS_KEEPER_PYTHON: 'off' },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
    });
    child.on('error', reject);
    child.on('close', () => resolve(out.trim().split('\n').at(-1) ?? '{}'));
  });
  // Outside any run, each tree alone starts the zygote and it retires with the tree; inside a run (the harness's
  // case) the zygote stays between trees, so each is a fork, as it is with another tree running.
  const alone = await measure('spawnSupervised(true) + exit, under the keeper, no run and no other tree (zygote starts, retires)', supervised, 15, 2);
  const run = createRegistry();
  const [bareInRun, keptInRun] = await alternate(
    { label: 'reference: child_process.spawn(true) + close, own process group', task: bareSpawn },
    { label: 'spawnSupervised(true) + exit, under the keeper, alone inside a run (zygote forks)', task: supervised },
    15,
    2,
  );
  await run.dispose();
  const server = spawnSupervised({ command: 'sleep', args: ['600'], cwd: process.cwd() });
  await server.started;
  const [bare, kept] = await alternate(
    { label: 'reference: child_process.spawn(true) + close, own process group', task: bareSpawn },
    { label: 'spawnSupervised(true) + exit, under the keeper, another tree running (zygote forks)', task: supervised },
    15,
    2,
  );
  const stops = await measure('spawnSupervised + stop of 3 processes, one setsid (keeper, SIGTERM)', supervisedStop, 9, 1);
  await server.stop();
  const timings = [
    bareInRun,
    keptInRun,
    bare,
    kept,
    alone,
    JSON.parse(keeperOff),
    stops,
  ];
  console.log(timingTable(timings));
}
