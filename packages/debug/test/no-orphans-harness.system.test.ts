import { disposeHarness, killHarness, tempDir } from '@agent-tools/test-utils';
import { describe, expect, it } from 'vitest';
import { pythonForker } from './forkers.js';
import { lineOf } from './programs.js';

const harness = new URL('./harness/debug-harness.mjs', import.meta.url).pathname;

/** Stops at a breakpoint after forking the helper, and would then run for ten minutes. */
const FORKER = pythonForker('time.sleep(600)');

function project() {
  const dir = tempDir({ 'pyproject.toml': '[project]\nname = "forker"\n', 'forker.py': FORKER }, 'agent-tools-debug-harness-');
  return { args: [dir.path, String(lineOf(FORKER, '@after-fork'))], [Symbol.dispose]: () => dir.remove() };
}

describe('no debug process outlives its run (real debugpy, checked through /proc)', () => {
  it('a SIGKILLed harness with a session in a forking debuggee: adapter, debuggee and helper gone within 5 s', { timeout: 120_000 }, async () => {
    using run = project();
    const { args } = run;
    // The debugpy launcher, the debuggee and the helper (a fork: the same command line as the debuggee).
    const { seen, survivors } = await killHarness(harness, args, (running) => running.filter((p) => p.command.includes('forker.py')).length >= 3);
    expect(seen.some((p) => /debugpy[./]adapter/.test(p.command))).toBe(true);
    expect(survivors).toEqual([]);
  });

  it('a harness that disposes: the same processes are gone when dispose returns', { timeout: 120_000 }, async () => {
    using run = project();
    expect(await disposeHarness(harness, run.args)).toEqual([]);
  });
});
