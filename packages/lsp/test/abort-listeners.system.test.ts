import { describe, expect, it } from 'vitest';
import { rxjs } from './differential/projects.js';
import { startRun, text } from './helpers.js';

// Issue 22, item 11: a rename across many files checks every file's diagnostics with two requests each under the
// call's one AbortSignal; with one listener per request Node printed MaxListenersExceededWarning on the harness's
// stderr. Renaming rxjs's isFunction (used in 29 files) must raise no process warning at all.
describe('no warnings on the harness process', () => {
  it('a rename across 29 files of rxjs, with diagnostics of every file, adds no MaxListenersExceededWarning', { timeout: 300_000 }, async () => {
    const warnings: string[] = [];
    const onWarning = (warning: Error): void => {
      warnings.push(`${warning.name}: ${warning.message}`);
    };
    process.on('warning', onWarning);
    try {
      await using run = startRun({}, { indexWaitMs: 300_000 });
      rxjs.prepare(run.dir.path);
      const result = await run.call('lsp_rename', { file: 'internal/util/isFunction.ts', line: 5, symbol: 'isFunction', new_name: 'isCallable' });
      expect(result.isError, text(result)).toBe(false);
      expect(text(result)).toMatch(/in (29|30) files/);
      // Warnings are emitted on the next tick.
      await new Promise((resolve) => setTimeout(resolve, 100));
    } finally {
      process.off('warning', onWarning);
    }
    expect(warnings).toEqual([]);
  });
});
