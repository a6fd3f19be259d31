import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createRegistry, defineFactory, defineTool, resultText, textResult } from '../src/index.js';
import { RunNotices } from '../src/notices.js';
import { echoTool } from './helpers.js';

/** A background job that posts to the board its factory was given when it is told to end. */
function backgroundFactory() {
  const jobs: { end(text: string, key?: string): void }[] = [];
  const factory = defineFactory({
    name: 'background',
    needs: ['cwd'],
    create: (_resources, run) => {
      jobs.push({ end: (text, key) => run?.notices.post({ text, source: 'background', heading: 'Background jobs:', ...(key ? { key } : {}) }) });
      return [
        echoTool('look'),
        defineTool({
          name: 'collect',
          tier: 'read',
          description: 'Collects a job whose result the answer already carries, withdrawing its notice.',
          parallelSafe: true,
          parameters: z.object({ key: z.string() }),
          execute: ({ key }, ctx) => textResult(`collected ${key}: ${ctx.notices.withdraw(key)}`),
        }),
      ];
    },
  });
  return { factory, job: () => jobs[0] as { end(text: string, key?: string): void } };
}

describe('run notices', () => {
  it('are appended once to the next result of the run, whichever tool it is', async () => {
    const { factory, job } = backgroundFactory();
    await using registry = createRegistry({ resources: { cwd: '/tmp' }, factories: [factory] });
    expect(resultText(await registry.call('look', {}))).toBe('look: hi');
    job().end('job 1 finished in 3 s: ok');
    job().end('job 2 failed after 1 s');
    expect(resultText(await registry.call('look', {}))).toBe(
      ['look: hi', 'Background jobs:', 'job 1 finished in 3 s: ok', 'job 2 failed after 1 s'].join('\n'),
    );
    expect(resultText(await registry.call('look', {}))).toBe('look: hi');
  });

  it('go onto error results too, and stay off the results of nested calls', async () => {
    const { factory, job } = backgroundFactory();
    const bridge = defineTool({
      name: 'bridge',
      tier: 'read',
      description: 'Calls look through the registry.',
      parallelSafe: true,
      parameters: z.object({}),
      async execute(_p, ctx) {
        job().end('ended during the call');
        return textResult(`inner: ${resultText(await ctx.registry.call('look', {}))}`);
      },
    });
    await using registry = createRegistry({ resources: { cwd: '/tmp' }, factories: [factory], tools: [bridge] });
    expect(resultText(await registry.call('bridge', {}))).toBe('inner: look: hi\nBackground jobs:\nended during the call');
    job().end('second');
    const refused = await registry.call('nope', {});
    expect(refused.isError).toBe(true);
    expect(resultText(refused)).toMatch(/^Unknown tool "nope"\. .*\nBackground jobs:\nsecond$/);
  });

  it('can be withdrawn by the tool whose answer already says it', async () => {
    const { factory, job } = backgroundFactory();
    await using registry = createRegistry({ resources: { cwd: '/tmp' }, factories: [factory] });
    job().end('job 7 finished', 'job-7');
    expect(resultText(await registry.call('collect', { key: 'job-7' }))).toBe('collected job-7: true');
    expect(resultText(await registry.call('look', {}))).toBe('look: hi');
  });

  it('share the board with late diagnostics, grouped under their own headings in posting order', () => {
    const board = new RunNotices();
    board.post({ text: 'lone notice' });
    board.post({ text: 'a', heading: 'H1:' });
    board.post({ text: 'b', heading: 'H2:' });
    board.post({ text: 'c', heading: 'H1:' });
    expect(board.take()).toBe(['lone notice', 'H1:', 'a', 'c', 'H2:', 'b'].join('\n'));
    expect(board.take()).toBe('');
  });

  it('take only one source when asked, leaving the rest', () => {
    const board = new RunNotices();
    board.post({ text: 'mine', source: 'x' });
    board.post({ text: 'theirs', source: 'y' });
    expect(board.take('x')).toBe('mine');
    expect(board.pending()).toBe(1);
    expect(board.take()).toBe('theirs');
  });

  it('are bounded: the oldest are dropped, and the delivery says how many', () => {
    const board = new RunNotices({ maxPending: 3, maxChars: 20 });
    for (let i = 1; i <= 5; i++) board.post({ text: `notice ${i}` });
    board.post({ text: 'x'.repeat(50) });
    expect(board.take()).toBe(
      ['(3 earlier notices were dropped: too many waited.)', 'notice 4', 'notice 5', `${'x'.repeat(20)}… (30 more characters)`].join('\n'),
    );
  });

  it('replace a pending notice with the same key, ignore blank text, and end with the run', async () => {
    const board = new RunNotices();
    board.post({ text: 'first', key: 'k' });
    board.post({ text: '   ' });
    board.post({ text: 'second', key: 'k' });
    expect(board.take()).toBe('second');
    const registry = createRegistry();
    registry.notices.post({ text: 'late' });
    await registry.dispose();
    registry.notices.post({ text: 'after the end' });
    expect(registry.notices.pending()).toBe(0);
  });
});
