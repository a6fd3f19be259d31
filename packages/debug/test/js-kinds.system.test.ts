import { waitForNoProcesses } from '@agent-tools/test-utils';
import { describe, expect, it } from 'vitest';
import { debugRig } from './helpers.js';
import { CALLS_DEP_JS, DEP_JS, LOOP_JS, SPINNER_JS, THROWER_JS } from './js-programs.js';
import { lineOf } from './programs.js';

const LOOP = lineOf(LOOP_JS, '@loop');

describe('js adapter: breakpoint kinds, exceptions, skipped files, pause (real js-debug)', () => {
  it('a condition, a hit count and a logpoint; function breakpoints are refused (js-debug has none)', { timeout: 90_000 }, async () => {
    await using rig = debugRig({ 'loop.js': LOOP_JS });
    await rig.call({ action: 'breakpoints', file: 'loop.js', lines: [{ line: LOOP, condition: 'i === 3' }, { line: 2, log_message: 'square of {n} is {n * n}' }] });
    const fn = await rig.call({ action: 'breakpoints', functions: ['square'] });
    expect(fn.text).toContain('square');
    const launched = await rig.call({ action: 'launch', program: 'loop.js' });
    expect(launched.isError, launched.text).toBe(false);
    expect(launched.text).toContain('  square: NOT set — the js adapter does not support function breakpoints; set a line breakpoint on the function\'s first line instead');
    expect(launched.text).toContain(`Stopped at a breakpoint (line ${LOOP} [condition: i === 3]) in <anonymous> at loop.js:${LOOP}`);
    expect(launched.text).toMatch(/ {2}i \(number\) = 3/);
    // The logpoint printed for i = 0..2 before the stop and did not stop there.
    expect(launched.text).toContain('square of 0 is 0');
    expect(launched.text).toContain('square of 2 is 4');
    expect(launched.text).not.toContain('square of 3 is 9');
    await rig.call({ action: 'breakpoints', file: 'loop.js', lines: [{ line: LOOP, hit_condition: '% 2' }] });
    const second = await rig.call({ action: 'continue' });
    // Hits counted from the change: the 2nd hit after it is i = 5 (i = 4 is the first).
    expect(second.text).toContain(`Stopped at a breakpoint (line ${LOOP} [hit count: % 2])`);
    expect(second.text).toMatch(/ {2}i \(number\) = 5/);
    const done = await rig.call({ action: 'continue' });
    expect(done.text).toContain('total 55');
    expect(done.structured.state).toBe('ended');
  });

  it('a hit count "3" stops at the third hit only', { timeout: 90_000 }, async () => {
    await using rig = debugRig({ 'loop.js': LOOP_JS });
    await rig.call({ action: 'breakpoints', file: 'loop.js', lines: [{ line: LOOP, hit_condition: '3' }] });
    const launched = await rig.call({ action: 'launch', program: 'loop.js' });
    expect(launched.text).toMatch(/ {2}i \(number\) = 2/);
    const done = await rig.call({ action: 'continue' });
    expect(done.structured.state).toBe('ended');
  });

  it('stops on an uncaught exception by default, with its message; ["all"] also stops at a caught one', { timeout: 90_000 }, async () => {
    await using rig = debugRig({ 'throws.js': THROWER_JS });
    const THROW = lineOf(THROWER_JS, '@throw');
    const launched = await rig.call({ action: 'launch', program: 'throws.js' });
    expect(launched.isError, launched.text).toBe(false);
    expect(launched.text).toContain(`Stopped on an exception in global.parseSize at throws.js:${THROW}`);
    expect(launched.text).toContain('RangeError: bad size: x');
    expect(launched.text).toContain('caught bad size: -1');
    expect(launched.text).toMatch(/text \(string\) = 'x'/);
    await rig.call({ action: 'terminate' });
    await rig.call({ action: 'breakpoints', exceptions: ['all'] });
    const all = await rig.call({ action: 'launch', program: 'throws.js' });
    expect(all.text).toContain(`Stopped on an exception in global.parseSize at throws.js:${THROW}`);
    expect(all.text).toMatch(/text \(string\) = '-1'/);
    expect(all.text).not.toContain('caught bad size');
    await rig.call({ action: 'terminate' });
    expect(await waitForNoProcesses(rig.dir.path, 5000)).toEqual([]);
  });

  it('step_in passes through node_modules into the program\'s own callback (skipFiles)', { timeout: 90_000 }, async () => {
    await using rig = debugRig({ 'package.json': '{"name":"calls"}', 'calls.js': CALLS_DEP_JS, 'node_modules/dep/index.js': DEP_JS, 'node_modules/dep/package.json': '{"name":"dep","main":"index.js"}' });
    await rig.call({ action: 'breakpoints', file: 'calls.js', lines: [lineOf(CALLS_DEP_JS, '@call')] });
    const launched = await rig.call({ action: 'launch', program: 'calls.js' });
    expect(launched.text).toContain(`at calls.js:${lineOf(CALLS_DEP_JS, '@call')}`);
    const into = await rig.call({ action: 'step_in' });
    expect(into.text).toContain('Stopped after the step in global.double at calls.js:3');
    expect(into.text).toMatch(/Called from: Object.apply \(node_modules\/dep\/index\.js:2\)/);
    const done = await rig.call({ action: 'continue' });
    expect(done.text).toContain('value 42');
  });

  it('pauses a runaway loop where it is, and terminate leaves nothing behind', { timeout: 90_000 }, async () => {
    await using rig = debugRig({ 'spin.js': SPINNER_JS }, { waitMs: 1500 });
    const launched = await rig.call({ action: 'launch', program: 'spin.js' });
    expect(launched.text).toContain('The program is still running after 2 s');
    const paused = await rig.call({ action: 'pause' });
    expect(paused.isError, paused.text).toBe(false);
    expect(paused.text).toMatch(/Stopped by pause in (tick|<anonymous>) at spin\.js:\d+/);
    const ticks = await rig.call({ action: 'evaluate', expression: 'ticks > 0' });
    expect(ticks.text).toMatch(/= true$/);
    const pids = rig.pids();
    expect(pids.length).toBeGreaterThanOrEqual(2);
    await rig.call({ action: 'terminate' });
    expect(await waitForNoProcesses(rig.dir.path, 5000)).toEqual([]);
  });
});
