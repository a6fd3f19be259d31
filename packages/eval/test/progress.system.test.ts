import type { ProgressEvent, ToolProgress } from '@agent-tools/core';
import { tempDir } from '@agent-tools/test-utils';
import { afterAll, describe, expect, it } from 'vitest';
import { CellProgress } from '../src/cell-progress.js';
import { DESCRIPTION, evalRun } from './helpers.js';

describe('a running cell reports its progress', () => {
  const dir = tempDir({}, 'agent-tools-eval-progress-');
  const run = evalRun(dir.path);
  afterAll(async () => {
    await run.registry.dispose();
    dir.remove();
  });

  it("streams the cell's printed output while it runs, progress bars at their latest state, nothing after", async () => {
    const events: ProgressEvent[] = [];
    let answered = false;
    let late = 0;
    const code = [
      'import time',
      'for i in range(3):',
      '    print(f"step {i}", flush=True)',
      '    time.sleep(0.5)',
      'print("\\rloading 10%", end="", flush=True)',
      'time.sleep(0.5)',
      'print("\\rloading 100%", flush=True)',
      'time.sleep(0.5)',
      '"done"',
    ].join('\n');
    const result = await run.registry.call(
      'eval',
      { code, description: DESCRIPTION },
      {
        onProgress: (event) => {
          if (answered) late++;
          events.push(event);
        },
      },
    );
    answered = true;
    expect(result.isError).toBe(false);
    expect(events.length).toBeGreaterThanOrEqual(3);
    for (const event of events) {
      expect(event).toMatchObject({ tool: 'eval', path: ['eval'], message: expect.stringMatching(/^Python cell running for \d+ s/) });
    }
    // Output arrives while the cell runs, in order, before the answer.
    const outputs = events.map((e) => e.output ?? '');
    const firstStep = outputs.findIndex((o) => o.includes('step 0'));
    const bar = outputs.findIndex((o) => o.includes('loading 100%'));
    expect(firstStep).toBeGreaterThanOrEqual(0);
    expect(bar).toBeGreaterThan(firstStep);
    expect(outputs[bar]).toBe('step 0\nstep 1\nstep 2\nloading 100%');
    await new Promise((r) => setTimeout(r, 600));
    expect(late).toBe(0);
  });
});

describe('CellProgress', () => {
  it('says a silent cell is running, and keeps the newest 2000 characters of what it printed', () => {
    const reports: ToolProgress[] = [];
    using progress = new CellProgress((p) => reports.push(p), 'JavaScript');
    progress.output('x'.repeat(5000));
    progress.output('\nlast line\r');
    expect(reports.at(-1)?.message).toBe('JavaScript cell running for 0 s');
    expect(reports.at(-1)?.output?.length).toBeLessThanOrEqual(2000);
    expect(reports.at(-1)?.output?.endsWith('\nlast line')).toBe(true);
    const silent: ToolProgress[] = [];
    using quiet = new CellProgress((p) => silent.push(p), 'Python');
    quiet.output('');
    expect(silent).toEqual([{ message: 'Python cell running for 0 s, no output yet' }]);
  });
});
