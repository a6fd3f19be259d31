import { disposeHarness, killHarness } from '@agent-tools/test-utils';
import { describe, expect, it } from 'vitest';

const harness = new URL('./harness/worker-harness.mjs', import.meta.url).pathname;
const sleeps = (running: readonly { command: string }[]) => running.filter((p) => /^sleep 60[01]$/.test(p.command)).length === 2;

describe('no worker process outlives its run (real processes, checked through /proc)', () => {
  it('a SIGKILLed harness: the worker and its setsid grandchild end within 5 s', { timeout: 60_000 }, async () => {
    const { seen, survivors } = await killHarness(harness, [], sleeps);
    expect(seen.map((p) => p.command)).toContain('sleep 600');
    expect(survivors).toEqual([]);
  });

  it('a harness that disposes its worker list: the setsid grandchild goes too', { timeout: 60_000 }, async () => {
    expect(await disposeHarness(harness, [])).toEqual([]);
  });
});
