import { randomInt } from 'node:crypto';
import { processesMatching, tempDir, waitForNoProcesses } from '@agent-tools/test-utils';
import { afterAll, describe, expect, it } from 'vitest';
import { evalRun } from './helpers.js';

// Issue #13 item 9: `!sleep 600 &` in a cell returns at once, and its processes end with the kernel or the run.
// The idle budget is short, so a cell that waited on the background job would fail with a timeout.
const dir = tempDir({}, 'agent-tools-eval-bg-');
afterAll(() => dir.remove());

/** A sleep whose command line is unique to this test, to find it through /proc. */
function uniqueSleep(): string {
  return `sleep 600.${randomInt(100_000, 999_999)}`;
}

describe('a background shell command in a cell (real ipykernel)', () => {
  it('returns at once with the output before it, the next cell works, and a reset ends the job', { timeout: 120_000 }, async () => {
    const run = evalRun(dir.path);
    try {
      const sleep = uniqueSleep();
      const started = await run.cell(`!echo before; ${sleep} &\nprint("after")`, { timeout_seconds: 5 });
      expect(started.result.isError, started.text).toBe(false);
      expect(started.text).toBe('before\nafter');
      expect(processesMatching(sleep).length).toBe(1);
      const next = await run.cell('1 + 1');
      expect(next.text).toMatch(/Out\[\d+\]: 2$/);
      const reset = await run.cell('2 + 2', { reset: true });
      expect(reset.text).toMatch(/^The python kernel was reset: this cell runs in a clean one\.\nOut\[1\]: 4$/);
      expect(await waitForNoProcesses(sleep, 5000)).toEqual([]);
    } finally {
      await run.registry.dispose();
    }
  });

  it('a job left running ends when the run is disposed; x = !cmd & returns too', { timeout: 120_000 }, async () => {
    const run = evalRun(dir.path);
    const sleep = uniqueSleep();
    try {
      const lines = await run.cell(`x = !echo one; ${sleep} &\nx`, { timeout_seconds: 5 });
      expect(lines.result.isError, lines.text).toBe(false);
      expect(lines.text).toMatch(/Out\[\d+\]: \['one'\]$/);
      expect(processesMatching(sleep).length).toBe(1);
    } finally {
      await run.registry.dispose();
    }
    expect(processesMatching(sleep)).toEqual([]);
  });
});
