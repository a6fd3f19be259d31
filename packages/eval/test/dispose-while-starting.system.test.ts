import { processesMatching, tempDir, waitForNoProcesses } from '@agent-tools/test-utils';
import { afterAll, describe, expect, it } from 'vitest';
import { createKernelFactory } from '../src/index.js';

const dir = tempDir({}, 'agent-tools-eval-starting-');
// A sitecustomize on the kernels' PYTHONPATH holds every Python kernel in its start, before it can answer.
const stuck = tempDir({ 'sitecustomize.py': 'import time\ntime.sleep(600)\n' }, 'agent-tools-eval-stuck-');
afterAll(() => {
  dir.remove();
  stuck.remove();
});

describe('disposing while a kernel starts', () => {
  // With a start timeout of ten minutes, a dispose that waited for the start would run into the test's timeout.
  it('fails the start at once, saying the run ended, and leaves no process', { timeout: 60_000 }, async () => {
    const factory = createKernelFactory({ cwd: dir.path, kernelEnv: { PYTHONPATH: stuck.path }, startTimeoutMs: 600_000 });
    const acquired = factory.acquire(undefined, 'python').then(
      () => 'started',
      (error: Error) => error.message,
    );
    const kernel = (): boolean => processesMatching(factory.stateDir).some((p) => p.command.includes('ipykernel'));
    for (let i = 0; i < 600 && !kernel(); i++) await new Promise((resolve) => setTimeout(resolve, 50));
    expect(kernel()).toBe(true);
    await factory.dispose();
    expect(await acquired).toMatch(/Could not start the python kernel "[^"]+": the run ended while it started/);
    expect(await waitForNoProcesses(factory.stateDir, 10_000)).toEqual([]);
  });
});
