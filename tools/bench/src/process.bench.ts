import { spawn } from 'node:child_process';
import { spawnSupervised } from '@agent-tools/core/process';
import { measure, timingTable } from './measure.js';

/**
 * core/process: what supervision costs. The reference is a bare `child_process.spawn` (own process group, as every
 * package used to start its processes) of the same command, waiting for it to exit; the supervised runs start it
 * under the keeper (Linux, Python 3) and with it off (`AGENT_TOOLS_KEEPER_PYTHON=off` is read once per process, so
 * that mode runs in a child process of its own).
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
  const timings = [
    await measure('reference: child_process.spawn(true) + close, own process group', bareSpawn, 15, 2),
    await measure('spawnSupervised(true) + exit, under the keeper', supervised, 15, 2),
    JSON.parse(keeperOff),
    await measure('spawnSupervised + stop of 3 processes, one setsid (keeper, SIGTERM)', supervisedStop, 9, 1),
  ];
  console.log(timingTable(timings));
}
