import { execFileSync } from 'node:child_process';
import { readFileSync, statSync } from 'node:fs';
import { basename, dirname } from 'node:path';
import { tempDir } from '@agent-tools/test-utils';
import { describe, expect, it } from 'vitest';
import { inspectorNoDelayOptions } from '../src/adapters/js-nodelay.js';
import { debugRig } from './helpers.js';
import { FORKER_JS } from './js-programs.js';
import { lineOf } from './programs.js';

/** What the debuggee's preload kept: one handle per inspector connection it set TCP_NODELAY on. */
const KEPT = "globalThis[Symbol.for('agent-tools.inspector-nodelay')]?.length";

function commandLine(pid: number): string[] {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean);
  } catch {
    return [];
  }
}

describe('js adapter: no TCP wait between the session, js-debug and the program (real js-debug, Linux)', () => {
  it('speaks to js-debug over a local socket in the session folder, and the inspector connection of each process has TCP_NODELAY', { timeout: 90_000 }, async () => {
    await using rig = debugRig({ 'fork.js': FORKER_JS });
    await rig.call({ action: 'breakpoints', file: 'fork.js', lines: [lineOf(FORKER_JS, '@child'), lineOf(FORKER_JS, '@parent')] });
    const child = await rig.call({ action: 'launch', program: 'fork.js' });
    expect(child.text).toContain(`Stopped at a breakpoint in <anonymous> at fork.js:${lineOf(FORKER_JS, '@child')}`);

    const server = rig.pids().map(commandLine).find((args) => args.some((a) => /vsDebugServer\.js$|dapDebugServer\.js$/.test(a)));
    const socket = server?.at(-1) ?? '';
    expect(basename(socket)).toBe('dap.sock');
    expect(basename(dirname(socket))).toMatch(/^agent-tools-debug-/);
    expect(statSync(socket).isSocket()).toBe(true);

    // The preload ran in the forked child (where the stop is) and in the parent, each finding its one connection.
    expect((await rig.call({ action: 'evaluate', expression: KEPT })).text).toMatch(/\(number\) = 1$/);
    const parent = await rig.call({ action: 'continue' });
    expect(parent.text).toContain(`Stopped at a breakpoint in <anonymous> at fork.js:${lineOf(FORKER_JS, '@parent')}`);
    expect((await rig.call({ action: 'evaluate', expression: KEPT })).text).toMatch(/\(number\) = 1$/);
    const done = await rig.call({ action: 'continue' });
    expect(done.text).toContain('child exited 0');
    expect(done.text).toContain('The program exited with code 0.');
  });

  it('the preload leaves a process without an open inspector alone', () => {
    using dir = tempDir({});
    const options = inspectorNoDelayOptions(dir.path);
    const printed = execFileSync(process.execPath, ['-e', `process.stdout.write(String(${KEPT}))`], {
      env: { ...process.env, NODE_OPTIONS: options },
      encoding: 'utf8',
    });
    expect(printed).toBe('undefined');
  });
});
