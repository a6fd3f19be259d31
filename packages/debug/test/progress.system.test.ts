import { type ProgressEvent, resultText } from '@agent-tools/core';
import { describe, expect, it } from 'vitest';
import { debugRig } from './helpers.js';

const TICKER = `import time
for i in range(40):
    print(f"tick {i}", flush=True)
    time.sleep(0.2)
`;

describe('a debug call that waits for the program reports that it is still running', () => {
  it('launch and continue say every second how long the program has run and what it printed (debugpy)', { timeout: 60_000 }, async () => {
    await using rig = debugRig({ 'pyproject.toml': '[project]\nname = "fixture"\n', 'ticker.py': TICKER }, { waitMs: 2500 });
    const events: ProgressEvent[] = [];
    const call = (args: Record<string, unknown>) => rig.registry.call('debug', args, { onProgress: (e) => events.push(e) });

    const launched = await call({ action: 'launch', program: 'ticker.py' });
    expect(resultText(launched)).toContain('still running after 3 s');
    expect(events.length).toBeGreaterThanOrEqual(1);
    expect(events[0]).toMatchObject({ tool: 'debug', message: expect.stringMatching(/^program still running after \d+ s; no breakpoint hit yet$/) });
    expect(events.at(-1)?.output).toMatch(/tick \d+/);

    events.length = 0;
    const resumed = await call({ action: 'continue' });
    expect(resultText(resumed)).toContain('The program was already running');
    expect(events.length).toBeGreaterThanOrEqual(1);
    // What the answer reports as new output, the progress showed first.
    const printed = events.at(-1)?.output ?? '';
    expect(printed).toMatch(/^tick \d+/);
    expect(resultText(resumed)).toContain(printed.split('\n')[0] ?? 'none');

    events.length = 0;
    await call({ action: 'terminate' });
    expect(events).toEqual([]);
  });
});
