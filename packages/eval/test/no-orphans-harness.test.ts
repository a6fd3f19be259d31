import { envMarker, markedProcesses, startHarnessProcess, tempDir, waitForNoMarked, waitUntil } from '@agent-tools/test-utils';
import { describe, expect, it } from 'vitest';

const harness = new URL('./harness/kernel-harness.mjs', import.meta.url).pathname;

function startOn(env: NodeJS.ProcessEnv) {
  const dir = tempDir({}, 'agent-tools-eval-harness-');
  return { dir, ...startHarnessProcess(harness, [dir.path], env) };
}

describe('no eval process outlives its run (real Jupyter server and ipykernel, checked through /proc)', () => {
  it('a SIGKILLed harness with a kernel running background shell commands: all gone within 5 s', { timeout: 120_000 }, async () => {
    const marker = envMarker();
    const { child, said, dir } = startOn(marker.env);
    try {
      await said('ready');
      await waitUntil(() => markedProcesses(marker).filter((p) => /^sleep 60[01]$/.test(p.command)).length === 2);
      const commands = markedProcesses(marker).map((p) => p.command);
      expect(commands.some((c) => c.includes('ipykernel'))).toBe(true);
      expect(commands.some((c) => c.includes('agent_tools_ready'))).toBe(true);
    } finally {
      child.kill('SIGKILL');
    }
    expect(await waitForNoMarked(marker, 5000)).toEqual([]);
    dir.remove();
  });

  it('a harness that disposes: the server, the kernel and both commands are gone when dispose returns', { timeout: 120_000 }, async () => {
    const marker = envMarker();
    const { child, said, dir } = startOn({ ...marker.env, HARNESS_DISPOSE: '1' });
    await said('disposed');
    expect(markedProcesses(marker).filter((p) => p.pid !== child.pid)).toEqual([]);
    dir.remove();
  });
});
