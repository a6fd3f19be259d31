import { tempDir } from '@agent-tools/test-utils';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type EvalRun, evalRun } from './helpers.js';

// ipykernel aborts every execute request that reaches it while it is still "aborting the queue" after a cell
// failed (stop_on_error). By default that window is one turn of its event loop, which a fast next cell hits now
// and then (under load, about one cell in twenty after an error); a kernel configured with a longer window
// (stop_on_error_timeout, as here) hits it every time. Eval sends one cell at a time, so there is never a queue
// to abort.
const dir = tempDir({ 'ipython/profile_default/ipython_kernel_config.py': 'c.Kernel.stop_on_error_timeout = 3.0\n' }, 'agent-tools-eval-after-error-');
let run: EvalRun;

beforeAll(() => {
  run = evalRun(dir.path, { factory: { kernelEnv: { IPYTHONDIR: dir.join('ipython') } } });
});
afterAll(async () => {
  await run.registry.dispose();
  dir.remove();
});

describe('the cell right after a failed one (real ipykernel)', () => {
  it('runs, and is answered with its own output', { timeout: 120_000 }, async () => {
    for (let i = 0; i < 3; i++) {
      const failed = await run.cell('raise ValueError("boom")');
      expect(failed.result.isError).toBe(true);
      expect(failed.text).toContain('ValueError: boom');
      const next = await run.cell(`${i} + 40`);
      expect(next.result.isError, JSON.stringify(next.result)).toBe(false);
      expect(next.text).toMatch(new RegExp(`Out\\[\\d+\\]: ${i + 40}$`));
    }
  });
});
