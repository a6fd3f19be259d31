import { disposeHarness, killHarness, tempDir } from '@agent-tools/test-utils';
import { describe, expect, it } from 'vitest';

const harness = new URL('./harness/kernel-harness.mjs', import.meta.url).pathname;

describe('no eval process outlives its run (real Jupyter server and ipykernel, checked through /proc)', () => {
  it('a SIGKILLed harness with a kernel running background shell commands: all gone within 5 s', { timeout: 120_000 }, async () => {
    using dir = tempDir({}, 'agent-tools-eval-harness-');
    const { seen, survivors } = await killHarness(harness, [dir.path], (running) => running.filter((p) => /^sleep 60[01]$/.test(p.command)).length === 2);
    const commands = seen.map((p) => p.command);
    expect(commands.some((c) => c.includes('ipykernel'))).toBe(true);
    expect(commands.some((c) => c.includes('agent_tools_ready'))).toBe(true);
    expect(survivors).toEqual([]);
  });

  it('a harness that disposes: the server, the kernel and both commands are gone when dispose returns', { timeout: 120_000 }, async () => {
    using dir = tempDir({}, 'agent-tools-eval-harness-');
    expect(await disposeHarness(harness, [dir.path])).toEqual([]);
  });
});
