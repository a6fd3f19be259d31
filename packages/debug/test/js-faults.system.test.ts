import { disposeHarness, killHarness, tempDir, waitDead, waitForNoProcesses } from '@agent-tools/test-utils';
import { describe, expect, it } from 'vitest';
import { debugRig } from './helpers.js';
import { FORKER_JS } from './js-programs.js';
import { lineOf } from './programs.js';

const harness = new URL('./harness/js-harness.mjs', import.meta.url).pathname;

/** Starts a helper that leaves the program's session (`detached`: setsid) and sleeps ten minutes, then exits 0. */
const FORKS_AND_EXITS_JS = `const { spawn } = require('node:child_process');
const helper = spawn('sleep', ['600'], { detached: true, stdio: 'ignore' });
helper.unref();
console.log('forked helper', helper.pid);
`;

describe('js adapter faults (real js-debug; the same faults as the other adapters)', () => {
  it('an adapter killed mid-session ends it, says how, and every process is gone', { timeout: 90_000 }, async () => {
    await using rig = debugRig({ 'fork.js': FORKER_JS });
    await rig.call({ action: 'breakpoints', file: 'fork.js', lines: [lineOf(FORKER_JS, '@child')] });
    const launched = await rig.call({ action: 'launch', program: 'fork.js' });
    expect(launched.text).toContain('Stopped at a breakpoint');
    const pids = rig.pids();
    // js-debug's server, the program and its forked child.
    expect(pids.length).toBeGreaterThanOrEqual(3);
    process.kill(pids[0] as number, 'SIGKILL');
    const answer = await rig.call({ action: 'stack' });
    expect(answer.isError).toBe(true);
    expect(answer.text).toMatch(/The debug adapter died unexpectedly \(the js adapter was killed by SIGKILL/);
    expect(await waitDead(pids, 5000)).toEqual([]);
    const status = await rig.call({ action: 'status' });
    expect(status.text).toContain('No debug session is running.');
  });

  it('a program that starts a helper out of its session and exits: the session ends, the helper goes with it, the next launch works', { timeout: 90_000 }, async () => {
    await using rig = debugRig({ 'forker.js': FORKS_AND_EXITS_JS });
    const launched = await rig.call({ action: 'launch', program: 'forker.js' });
    expect(launched.isError, launched.text).toBe(false);
    expect(launched.text).toMatch(/forked helper \d+/);
    expect(launched.structured.state).toBe('ended');
    const helper = Number(/forked helper (\d+)/.exec(launched.text)?.[1]);
    expect(await waitDead([helper], 5000)).toEqual([]);
    expect(await waitForNoProcesses(rig.dir.path, 5000)).toEqual([]);
    const again = await rig.call({ action: 'launch', program: 'forker.js' });
    expect(again.structured.state).toBe('ended');
    const second = Number(/forked helper (\d+)/.exec(again.text)?.[1]);
    expect(await waitDead([second], 5000)).toEqual([]);
  });

  it('a SIGKILLed harness stopped in a forked child: js-debug, the program and the child are gone within 5 s (/proc)', { timeout: 120_000 }, async () => {
    using dir = tempDir({ 'fork.js': FORKER_JS }, 'agent-tools-debug-js-harness-');
    const args = [dir.path, String(lineOf(FORKER_JS, '@child'))];
    const { seen, survivors } = await killHarness(harness, args, (running) => running.filter((p) => p.command.includes('fork.js')).length >= 2);
    expect(seen.some((p) => /vsDebugServer|dapDebugServer/.test(p.command))).toBe(true);
    expect(survivors).toEqual([]);
    expect(await disposeHarness(harness, args)).toEqual([]);
  });
});
