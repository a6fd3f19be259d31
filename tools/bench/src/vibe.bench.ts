import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createRegistry } from '@agent-tools/core';
import { processRunner, vibeTools, WorkerList } from '@agent-tools/vibe';
import { measure, timingTable } from './measure.js';

/**
 * vibe: what the lifecycle costs on top of starting a process. The reference is a bare `child_process.spawn` of
 * the same script with the brief on stdin, waiting for it to close.
 */
const dir = mkdtempSync(join(tmpdir(), 'agent-tools-vibe-bench-'));
const script = join(dir, 'agent.sh');
writeFileSync(script, 'brief=$(cat)\necho "done: $brief"\n');
const hang = join(dir, 'hang.sh');
writeFileSync(hang, 'cat >/dev/null\necho working\nsetsid sleep 300 &\nsleep 300 &\nwait\n');

function bareSpawn(): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn('sh', [script], { stdio: ['pipe', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (c: Buffer) => {
      out += c.toString();
    });
    child.on('error', reject);
    child.on('close', () => (out.startsWith('done') ? resolve() : reject(new Error(out))));
    child.stdin.end('brief');
  });
}

const workerList = new WorkerList({ runner: processRunner({ command: ['sh', '{label}'], killGraceMs: 1000 }), maxRunning: 4 });
const registry = createRegistry({ resources: { workerList }, factories: [vibeTools] });
let n = 0;

async function spawnAndWait(): Promise<void> {
  await registry.call('vibe_spawn', { brief: 'brief', label: script });
  const result = await registry.call('vibe_wait', { worker_id: `w${++n}` });
  if (result.isError) throw new Error(JSON.stringify(result));
}

async function spawnAndKill(): Promise<void> {
  await registry.call('vibe_spawn', { brief: 'brief', label: hang });
  const id = `w${++n}`;
  while (!workerList.get(id).output.includes('working')) await new Promise((r) => setTimeout(r, 5));
  await registry.call('vibe_kill', { worker_id: id });
}

try {
  const timings = [
    await measure('reference: child_process.spawn + close (sh script, brief on stdin)', bareSpawn, 15, 2),
    await measure('vibe_spawn + vibe_wait, same script (supervised tree, cleanup)', spawnAndWait, 15, 2),
    await measure('vibe_spawn, then vibe_kill of a worker with 2 children, one setsid (whole tree)', spawnAndKill, 9, 1),
  ];
  console.log(timingTable(timings));
} finally {
  await registry.dispose();
  rmSync(dir, { recursive: true, force: true });
}
