import { writeFileSync } from 'node:fs';
import { createRegistry, type ProgressEvent, resultText } from '@agent-tools/core';
import { tempDir } from '@agent-tools/test-utils';
import { describe, expect, it, vi } from 'vitest';
import { createLspSupervisor, lspTools, type ProjectChecker } from '../src/index.js';
import { fakeServer } from './helpers.js';

// While `armed`, core's formatDuration throws: it is what the whole-project check's "checking … for N s" timer calls
// each second, and nothing a harness sets reaches that timer (the registry guards the progress listener).
const bugInTimer = vi.hoisted(() => ({ armed: false, calls: 0, bug: new TypeError("injected: Cannot read properties of undefined (reading 'seconds')") }));
vi.mock('@agent-tools/core/internal', async (importOriginal) => {
  const real = await importOriginal<typeof import('@agent-tools/core/internal')>();
  return {
    ...real,
    formatDuration: (...args: Parameters<typeof real.formatDuration>) => {
      if (!bugInTimer.armed) return real.formatDuration(...args);
      bugInTimer.calls++;
      throw bugInTimer.bug;
    },
  };
});

// Issue 26, item 6: a throw in a timer is an uncaught exception that ends the harness's process. The check is a
// harness's own checker (a shell that sleeps 3.5 s, so the timer ticks), armed while it runs: between its plan and
// its parse only the timer formats a duration.
describe('a bug in the whole-project check’s progress timer (injected with vi.mock into formatDuration; fake server, shell checker)', () => {
  it('reaches onError once, the timer stops, and the check still answers', { timeout: 60_000 }, async () => {
    using scripts = tempDir({}, 'agent-tools-fake-');
    const script = scripts.join('script.json');
    writeFileSync(script, '{}');
    const checker: ProjectChecker = {
      name: 'slow-check',
      plan: () => {
        bugInTimer.armed = true;
        return { command: { command: '/bin/sh', prefixArgs: [], source: 'absolute', display: '/bin/sh' }, args: ['-c', 'sleep 3.5'], title: 'slow-check' };
      },
      parse: () => {
        bugInTimer.armed = false;
        return [];
      },
    };
    using project = tempDir({ 'fake.json': '{}', 'a.fake': 'x\n' });
    const lspSupervisor = createLspSupervisor({ cwd: project.path, builtins: false, servers: [fakeServer(script, { projectCheck: checker })] });
    const seen: { error: unknown; context: unknown }[] = [];
    await using registry = createRegistry({
      resources: { cwd: project.path, lspSupervisor },
      factories: [lspTools],
      onError: (error, context) => void seen.push({ error, context }),
    });
    const events: ProgressEvent[] = [];
    const result = await registry.call('lsp', { action: 'diagnostics', file: '*' }, { onProgress: (event) => events.push(event) });
    expect(resultText(result)).toContain('verified: Fake at . by slow-check: no errors or warnings');
    // The first tick threw and stopped the timer: no second one in the 3.5 s.
    expect(bugInTimer.calls).toBe(1);
    expect(events.map((e) => e.message)).toEqual(['checking Fake at . (project 1 of 1)']);
    expect(seen).toEqual([{ error: bugInTimer.bug, context: { phase: 'call', tool: 'lsp' } }]);
  });
});
