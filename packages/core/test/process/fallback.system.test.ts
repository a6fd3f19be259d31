import type { ChildProcess } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { firstLine, freshTag, killAll, startHarness, taggedProcesses, untilTagged, waitNone } from './helpers.js';

/**
 * Without a keeper (macOS, Linux without Python, AGENT_TOOLS_KEEPER_PYTHON=off), what the supervisor still
 * promises: a harness that dies of a signal it does not handle takes its process groups with it, without changing
 * how the harness itself dies. Real processes, judged by /proc through a tag in their command lines.
 */
describe('a harness without a keeper that dies of a signal (real processes)', () => {
  for (const signal of ['SIGTERM', 'SIGINT', 'SIGHUP'] as const) {
    it(`${signal} with no handler of the harness's own: its process groups end with it`, { timeout: 30_000 }, async () => {
      const tag = freshTag();
      const harness = startHarness({ ...process.env, AGENT_TOOLS_KEEPER_PYTHON: 'off' }, 'hostile-harness.mjs', [tag, 'hold', 'hold']);
      try {
        expect(await firstLine(harness)).toBe('ready');
        // The harness and its two commands.
        await untilTagged(tag, 3);
      } finally {
        harness.kill(signal);
      }
      const { died, survivors } = await aftermath(harness, tag);
      // It still dies of the signal, as it would without the supervisor.
      expect(died).toBe(signal);
      expect(survivors).toEqual([]);
    });
  }
  it('a harness that also loads signal-exit still dies of SIGINT, and its trees end', { timeout: 30_000 }, async () => {
    const tag = freshTag();
    const harness = startHarness({ ...process.env, AGENT_TOOLS_KEEPER_PYTHON: 'off', SIGNAL_EXIT: '1' }, 'hostile-harness.mjs', [tag, 'hold']);
    try {
      expect(await firstLine(harness)).toBe('ready');
      await untilTagged(tag, 2);
    } finally {
      harness.kill('SIGINT');
    }
    const { died, survivors } = await aftermath(harness, tag);
    expect(died).toBe('SIGINT');
    expect(survivors).toEqual([]);
  });

  it('a harness that handles SIGINT itself keeps running, and so do its trees, until it exits', { timeout: 30_000 }, async () => {
    const tag = freshTag();
    const env = { ...process.env, AGENT_TOOLS_KEEPER_PYTHON: 'off', OWN_SIGINT: '1' };
    const harness = startHarness(env, 'hostile-harness.mjs', [tag, 'hold']);
    try {
      expect(await firstLine(harness)).toBe('ready');
      const said = new Promise<void>((resolve) => harness.stdout?.on('data', (chunk: string) => chunk.includes('own handler') && resolve()));
      // The harness and its command (no keeper).
      await untilTagged(tag, 2);
      harness.kill('SIGINT');
      await said;
      expect(harness.exitCode).toBeNull();
      expect(taggedProcesses(tag).length).toBe(2);
      // Its own exit (stdin closed: process.exit) runs the exit hook.
      harness.stdin?.end();
      expect(await waitNone(() => taggedProcesses(tag), 5000)).toEqual([]);
    } finally {
      harness.kill('SIGKILL');
      killAll(taggedProcesses(tag));
    }
  });
});

describe('stop before the command has started (real processes)', () => {
  for (const keeper of ['on', 'off'] as const) {
    it(`sends SIGTERM, not SIGKILL after the grace period (keeper ${keeper})`, { timeout: 30_000 }, async () => {
      const env = { ...process.env, ...(keeper === 'off' ? { AGENT_TOOLS_KEEPER_PYTHON: 'off' } : {}) };
      const harness = startHarness(env, 'stop-at-once.mjs');
      expect(JSON.parse(await firstLine(harness))).toEqual({ code: null, signal: 'SIGTERM' });
    });
  }
});

/**
 * How a signalled stand-in ended (`still running` after 5 s, then SIGKILLed) and what of its trees outlived it by
 * 5 s; those are SIGKILLed, so a failing check leaks nothing.
 */
async function aftermath(harness: ChildProcess, tag: string): Promise<{ died: unknown; survivors: number[] }> {
  const died =
    harness.exitCode !== null || harness.signalCode !== null
      ? harness.signalCode
      : await Promise.race([
          new Promise((resolve) => harness.once('exit', (_code, how) => resolve(how))),
          new Promise((resolve) => setTimeout(resolve, 5000, 'still running')),
        ]);
  harness.kill('SIGKILL');
  const survivors = await waitNone(() => taggedProcesses(tag), 5000);
  killAll(survivors);
  return { died, survivors };
}
