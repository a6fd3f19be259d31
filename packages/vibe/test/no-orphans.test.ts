import { envMarker, markedProcesses, startHarnessProcess, waitForNoMarked } from '@agent-tools/test-utils';
import { describe, expect, it } from 'vitest';
import { until } from './helpers.js';

const harness = new URL('./harness/worker-harness.mjs', import.meta.url).pathname;

describe('no worker process outlives its run (real processes, checked through /proc)', () => {
  it('a SIGKILLed harness: the worker and its setsid grandchild end within 5 s', { timeout: 30_000 }, async () => {
    const marker = envMarker();
    const { child, said } = startHarnessProcess(harness, [], marker.env);
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
    const { child, said } = startHarnessProcess(harness, [], { ...marker.env, HARNESS_DISPOSE: '1' });
    await said('disposed');
    expect(markedProcesses(marker).filter((p) => p.pid !== child.pid)).toEqual([]);
  });
});
