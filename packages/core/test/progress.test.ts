import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { approveAll, createRegistry, defineTool, type ProgressEvent, resultText, textResult } from '../src/index.js';
import { deferred } from './helpers.js';

/** A tool that reports `count` times, `gapMs` apart, then answers (or waits for `hold` first). */
function reporter(name: string, count: number, gapMs = 0, hold?: Promise<void>) {
  return defineTool({
    name,
    tier: 'read',
    description: 'Reports progress.',
    parallelSafe: true,
    parameters: z.object({}),
    async execute(_p, ctx) {
      for (let i = 1; i <= count; i++) {
        ctx.reportProgress({ message: `step ${i}`, progress: i, total: count });
        if (gapMs) await new Promise((r) => setTimeout(r, gapMs));
      }
      await hold;
      return textResult(`${name} done`);
    },
  });
}

describe('progress', () => {
  it('reaches the listener of the call with the reporting tool named, first report at once', async () => {
    const gate = deferred<void>();
    await using registry = createRegistry({ tools: [reporter('slow', 1, 0, gate.promise)] });
    const events: ProgressEvent[] = [];
    const call = registry.call('slow', {}, { onProgress: (e) => events.push(e) });
    await new Promise((r) => setTimeout(r, 20));
    expect(events).toEqual([{ message: 'step 1', progress: 1, total: 1, tool: 'slow', path: ['slow'] }]);
    gate.resolve();
    expect(resultText(await call)).toBe('slow done');
  });

  it('throttles a burst to the first report and the latest one, and delivers nothing after the answer', async () => {
    const gate = deferred<void>();
    await using registry = createRegistry({ tools: [reporter('burst', 50, 0, gate.promise)], progressIntervalMs: 40 });
    const events: ProgressEvent[] = [];
    const call = registry.call('burst', {}, { onProgress: (e) => events.push(e) });
    await new Promise((r) => setTimeout(r, 120));
    expect(events.map((e) => e.message)).toEqual(['step 1', 'step 50']);
    gate.resolve();
    await call;

    // A tool that reports and answers at once: the waiting trailing report is dropped with the answer.
    const late: ProgressEvent[] = [];
    await using quick = createRegistry({ tools: [reporter('quick', 3)], progressIntervalMs: 40 });
    await quick.call('quick', {}, { onProgress: (e) => late.push(e) });
    await new Promise((r) => setTimeout(r, 80));
    expect(late.map((e) => e.message)).toEqual(['step 1']);
  });

  it('is a no-op without a listener, and a listener that throws does not hurt the call', async () => {
    const errors: unknown[] = [];
    await using registry = createRegistry({ tools: [reporter('r', 2)], onError: (e) => errors.push(e) });
    expect(resultText(await registry.call('r', {}))).toBe('r done');
    const result = await registry.call('r', {}, {
      onProgress: () => {
        throw new Error('listener broke');
      },
    });
    expect(resultText(result)).toBe('r done');
    expect(errors).toEqual([new Error('listener broke')]);
  });

  it("passes a bridged call's reports to the caller's listener with the chain of calls, or to its own listener", async () => {
    const gate = deferred<void>();
    const outer = defineTool({
      name: 'outer',
      tier: 'exec',
      description: 'Calls inner through the bridge.',
      parallelSafe: false,
      parameters: z.object({ own: z.boolean() }),
      async execute({ own }, ctx) {
        const mine: ProgressEvent[] = [];
        const result = await ctx.registry.call('inner', {}, own ? { onProgress: (e) => mine.push(e) } : {});
        return textResult(`${resultText(result)}; own listener heard ${JSON.stringify(mine.map((e) => e.path))}`);
      },
    });
    await using registry = createRegistry({ tools: [outer, reporter('inner', 1, 0, gate.promise)], approve: approveAll });
    gate.resolve();
    const events: ProgressEvent[] = [];
    const inherited = await registry.call('outer', { own: false }, { onProgress: (e) => events.push(e) });
    expect(resultText(inherited)).toBe('inner done; own listener heard []');
    expect(events).toEqual([{ message: 'step 1', progress: 1, total: 1, tool: 'inner', path: ['outer', 'inner'] }]);

    events.length = 0;
    const separate = await registry.call('outer', { own: true }, { onProgress: (e) => events.push(e) });
    expect(resultText(separate)).toBe('inner done; own listener heard [["inner"]]');
    expect(events).toEqual([]);
  });

  it('keeps only the fields of a report', async () => {
    const tool = defineTool({
      name: 'leaky',
      tier: 'read',
      description: 'Reports extra keys.',
      parallelSafe: true,
      parameters: z.object({}),
      execute(_p, ctx) {
        ctx.reportProgress({ message: 'm', output: 'tail', secret: 'x', progress: Number.NaN } as never);
        return textResult('ok');
      },
    });
    await using registry = createRegistry({ tools: [tool] });
    const events: ProgressEvent[] = [];
    await registry.call('leaky', {}, { onProgress: (e) => events.push(e) });
    expect(events).toEqual([{ message: 'm', output: 'tail', tool: 'leaky', path: ['leaky'] }]);
  });
});
