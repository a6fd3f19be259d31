import { spawn } from 'node:child_process';
import { envMarker, markedProcesses, waitForNoMarked } from '@agent-tools/test-utils';
import { describe, expect, it } from 'vitest';
import { until } from './helpers.js';

const harness = new URL('./harness/worker-harness.mjs', import.meta.url).pathname;

function start(env: NodeJS.ProcessEnv) {
  const child = spawn(process.execPath, [harness], { env, stdio: ['ignore', 'pipe', 'inherit'] });
  let out = '';
  const said = (line: string) =>
    new Promise<void>((resolve, reject) => {
      const check = () => out.split('\n').includes(line) && resolve();
      child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
        out += chunk;
        check();
      });
      child.once('exit', (code) => reject(new Error(`the harness exited (${code}) before saying ${line}: ${out}`)));
      check();
    });
  return { child, said };
}

describe('no worker process outlives its run (real processes, checked through /proc)', () => {
  it('a SIGKILLed harness: the worker and its setsid grandchild end within 5 s', { timeout: 30_000 }, async () => {
    const marker = envMarker();
    const { child, said } = start(marker.env);
    try {
      await said('ready');
      await until(() => markedProcesses(marker).filter((p) => /^sleep 60[01]$/.test(p.command)).length === 2);
    } finally {
      child.kill('SIGKILL');
    }
    expect(await waitForNoMarked(marker, 5000)).toEqual([]);
  });

  it('a harness that disposes its worker list: the setsid grandchild goes too', { timeout: 30_000 }, async () => {
    const marker = envMarker();
    const { child, said } = start({ ...marker.env, HARNESS_DISPOSE: '1' });
    await said('disposed');
    expect(markedProcesses(marker).filter((p) => p.pid !== child.pid)).toEqual([]);
  });
});
