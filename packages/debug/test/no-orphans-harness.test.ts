import { envMarker, markedProcesses, startHarnessProcess, tempDir, waitForNoMarked, waitUntil } from '@agent-tools/test-utils';
import { describe, expect, it } from 'vitest';
import { lineOf } from './programs.js';

const harness = new URL('./harness/debug-harness.mjs', import.meta.url).pathname;

/** Forks a helper that leaves the session, then stops at a breakpoint and would run for ten minutes. */
const FORKER = `import os, time
pid = os.fork()
if pid == 0:
    os.setsid()
    time.sleep(600)
    os._exit(0)
print("forked", pid, flush=True)  # @stop
time.sleep(600)
`;

function startOn(env: NodeJS.ProcessEnv) {
  const dir = tempDir({ 'pyproject.toml': '[project]\nname = "forker"\n', 'forker.py': FORKER }, 'agent-tools-debug-harness-');
  return { dir, ...startHarnessProcess(harness, [dir.path, String(lineOf(FORKER, '@stop'))], env) };
}

describe('no debug process outlives its run (real debugpy, checked through /proc)', () => {
  it('a SIGKILLed harness with a session in a forking debuggee: adapter, debuggee and helper gone within 5 s', { timeout: 120_000 }, async () => {
    const marker = envMarker();
    const { child, said, dir } = startOn(marker.env);
    try {
      await said('ready');
      // The adapter, its launcher, the debuggee and the helper (a fork: same command line as the debuggee).
      await waitUntil(() => markedProcesses(marker).filter((p) => p.command.includes('forker.py')).length >= 3, 20_000);
      expect(markedProcesses(marker).some((p) => p.command.includes('debugpy.adapter') || p.command.includes('debugpy/adapter'))).toBe(true);
    } finally {
      child.kill('SIGKILL');
    }
    expect(await waitForNoMarked(marker, 5000)).toEqual([]);
    dir.remove();
  });

  it('a harness that disposes: the same processes are gone when dispose returns', { timeout: 120_000 }, async () => {
    const marker = envMarker();
    const { child, said, dir } = startOn({ ...marker.env, HARNESS_DISPOSE: '1' });
    await said('disposed');
    expect(markedProcesses(marker).filter((p) => p.pid !== child.pid)).toEqual([]);
    dir.remove();
  });
});
