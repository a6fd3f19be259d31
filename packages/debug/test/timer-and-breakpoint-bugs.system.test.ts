import { approveAll, createRegistry, type ProgressEvent, resultText } from '@agent-tools/core';
import { tempDir } from '@agent-tools/test-utils';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { builtinAdapters, createDebugSupervisor, type DebugSupervisorOptions, debugTools } from '../src/index.js';
import { BreakpointBook } from '../src/session/breakpoints.js';
import { OutputBuffer } from '../src/session/output-buffer.js';

// The debuggee's end is polled with core's isStillRunning; the test makes it throw (it raises nothing expected: a
// process that is gone reads as not running) while `failPoll.armed`.
const failPoll = vi.hoisted(() => ({ armed: false, calls: 0, bug: new TypeError('injected: a bug while polling the debuggee') }));
vi.mock('@agent-tools/core/process', async (importOriginal) => {
  const real = await importOriginal<typeof import('@agent-tools/core/process')>();
  return {
    ...real,
    isStillRunning: (entry: Parameters<typeof real.isStillRunning>[0]) => {
      if (!failPoll.armed) return real.isStillRunning(entry);
      failPoll.calls++;
      throw failPoll.bug;
    },
  };
});

afterEach(() => {
  failPoll.armed = false;
  vi.restoreAllMocks();
});

const SLEEPER = 'import time\nprint("started", flush=True)\ntime.sleep(4)\nprint("done", flush=True)\n';

function rig(options: DebugSupervisorOptions = {}) {
  const project = tempDir({ 'pyproject.toml': '[project]\nname = "probe"\n', 'app.py': SLEEPER });
  const seen: { error: unknown; context: unknown }[] = [];
  const registry = createRegistry({
    resources: { cwd: project.path, conversationId: 'c1', debugSupervisor: createDebugSupervisor({ waitMs: 2500, ...options }) },
    factories: [debugTools],
    approve: approveAll,
    onError: (error, context) => void seen.push({ error, context }),
  });
  return {
    project,
    registry,
    seen,
    async [Symbol.asyncDispose]() {
      await registry.dispose();
      project.remove();
    },
  };
}

const BACKGROUND = { phase: 'background', factory: '@agent-tools/debug' };

// Issue 26, item 6: a throw in a timer's callback is an uncaught exception, which ends the harness's process. Both
// of the session's timers are guarded: a bug is told once on the session's background path and the timer stops.
// Real debugpy; nothing a harness sets reaches these callbacks, so the bug is injected into our own code.
describe('a bug in the “still running” progress timer (injected with vi.spyOn on OutputBuffer.since; real debugpy)', () => {
  it('reaches onError once, the reports stop, and the launch still answers', { timeout: 60_000 }, async () => {
    await using r = rig();
    const bug = new TypeError('injected: a bug while reading the output for a progress report');
    const since = OutputBuffer.prototype.since;
    let fromTimer = 0;
    vi.spyOn(OutputBuffer.prototype, 'since').mockImplementation(function (this: OutputBuffer, ...args: Parameters<OutputBuffer['since']>) {
      // Only the timer's call: the answer reads the output with the same method.
      const limit = Error.stackTraceLimit;
      Error.stackTraceLimit = 50;
      const stack = new Error().stack ?? '';
      Error.stackTraceLimit = limit;
      if (stack.includes('listOnTimeout')) {
        fromTimer++;
        throw bug;
      }
      return since.apply(this, args);
    });
    const events: ProgressEvent[] = [];
    const launched = await r.registry.call('debug', { action: 'launch', program: 'app.py' }, { onProgress: (e) => events.push(e) });
    expect(resultText(launched)).toContain('still running after 3 s');
    expect(resultText(launched)).toContain('started');
    // The first tick threw and the timer stopped: no report, and no second tick in the 2.5 s the launch waited.
    expect(fromTimer).toBe(1);
    expect(events).toEqual([]);
    expect(r.seen).toEqual([{ error: bug, context: BACKGROUND }]);
    await r.registry.call('debug', { action: 'terminate' });
  });
});

describe('a bug in the poll for the debuggee’s end (injected with vi.mock into isStillRunning; real debugpy)', () => {
  it('reaches onError once, the polling stops, and the session goes on', { timeout: 60_000 }, async () => {
    await using r = rig();
    failPoll.armed = true;
    const launched = await r.registry.call('debug', { action: 'launch', program: 'app.py' });
    expect(resultText(launched)).toContain('still running after 3 s');
    // Polled every 200 ms: one call, then no more.
    expect(failPoll.calls).toBe(1);
    expect(r.seen).toEqual([{ error: failPoll.bug, context: BACKGROUND }]);
    const ended = await r.registry.call('debug', { action: 'continue' });
    expect(resultText(ended)).toContain('The program exited with code 0.');
    expect(failPoll.calls).toBe(1);
  });
});

// A breakpoint request that fails is recorded as the breakpoints' message; a bug while it is made is that message
// too (the breakpoint is not set) and is told once. The bug is the harness's adapter configuration's `hitCondition`
// hook, which throws on its second call: the first is the check of what can be sent, the second builds the request.
describe('a bug while a breakpoint request is made (injected: the harness’s hitCondition hook throws; real debugpy)', () => {
  it('the breakpoint reads as not set with the bug’s message, and onError hears it once', { timeout: 60_000 }, async () => {
    const debugpy = builtinAdapters().find((adapter) => adapter.id === 'debugpy');
    if (!debugpy?.hitCondition) throw new Error('debugpy is not a built-in adapter with a hitCondition');
    const translate = debugpy.hitCondition.bind(debugpy);
    const bug = new TypeError("Cannot read properties of undefined (reading 'count')");
    let calls = 0;
    await using r = rig({
      adapters: [
        {
          ...debugpy,
          hitCondition: (condition, context) => {
            if (++calls === 2) throw bug;
            return translate(condition, context);
          },
        },
      ],
    });
    await r.registry.call('debug', { action: 'breakpoints', file: 'app.py', lines: [{ line: 3, hit_condition: '1' }] });
    const launched = await r.registry.call('debug', { action: 'launch', program: 'app.py' });
    expect(resultText(launched)).toMatch(/line 3 \[hit count: 1\]: .*Cannot read properties of undefined \(reading 'count'\)/);
    expect(r.seen).toEqual([{ error: bug, context: BACKGROUND }]);
    await r.registry.call('debug', { action: 'terminate' });
  });
});

// The same for the exception setting: what the adapter refuses is its message; a bug is told too. Nothing a harness
// sets runs there, so the bug is injected with vi.spyOn: recording what the adapter accepted throws once.
describe('a bug while the exception setting is recorded (injected with vi.spyOn on BreakpointBook.recordExceptions; real debugpy)', () => {
  it('the setting reads as not applied with the bug’s message, and onError hears it once', { timeout: 60_000 }, async () => {
    await using r = rig();
    const bug = new TypeError("Cannot read properties of undefined (reading 'filters')");
    const record = BreakpointBook.prototype.recordExceptions;
    let calls = 0;
    vi.spyOn(BreakpointBook.prototype, 'recordExceptions').mockImplementation(function (this: BreakpointBook, ...args: Parameters<BreakpointBook['recordExceptions']>) {
      if (++calls === 1) throw bug;
      return record.apply(this, args);
    });
    await r.registry.call('debug', { action: 'breakpoints', exceptions: ['all'] });
    const launched = await r.registry.call('debug', { action: 'launch', program: 'app.py' });
    expect(resultText(launched)).toContain("Cannot read properties of undefined (reading 'filters')");
    expect(r.seen).toEqual([{ error: bug, context: BACKGROUND }]);
    await r.registry.call('debug', { action: 'terminate' });
  });
});
