import { describe, expect, it } from 'vitest';
import { checkCard } from '../src/card.js';
import { AskError, askCard, memoryPort } from '../src/index.js';
import { renderCard } from '../src/ports/render.js';
import { card, sleep, target } from './helpers.js';

describe('askCard', () => {
  it('refuses a card that cannot be shown, before it reaches the port', () => {
    const port = memoryPort();
    expect(() => askCard(port, card({ options: [] }), { target, timeoutMs: 1000 })).toThrow(AskError);
    expect(() => checkCard(card({ options: [{ label: 'a' }, { label: 'A' }] }))).toThrow(
      '[agent-tools/ask] This card cannot be shown: the label "A" repeats option 1; labels must be unique.',
    );
    expect(port.cards).toHaveLength(0);
  });

  it('counts the timeout from when a card is shown, not while it waits its turn', async () => {
    const port = memoryPort();
    const first = askCard(port, card(), { target, timeoutMs: 300 });
    const second = askCard(port, card({ question: 'second?' }), { target, timeoutMs: 300 });
    const a = await port.next();
    await sleep(200);
    a.choose('Postgres');
    const b = await port.next();
    await sleep(200);
    // 400 ms after it was asked, but only 200 ms after it was shown.
    b.choose('MySQL');
    expect(await first).toEqual({ type: 'answered', selected: ['Postgres'] });
    expect(await second).toEqual({ type: 'answered', selected: ['MySQL'] });
  });

  it('takes a timeout of Infinity (or longer than a timer can wait) as no timeout, not as 1 ms', async () => {
    for (const timeoutMs of [Number.POSITIVE_INFINITY, 40 * 24 * 3600_000]) {
      const port = memoryPort();
      const asked = askCard(port, card(), { target, timeoutMs });
      const shown = await port.next();
      await sleep(50);
      shown.choose('Postgres');
      // setTimeout takes such a delay as 1 ms: "Nobody answered within Infinity h".
      expect(await asked).toEqual({ type: 'answered', selected: ['Postgres'] });
    }
    expect(renderCard(card(), Number.POSITIVE_INFINITY)).not.toMatch(/Times out|Infinity/);
  });

  it('lets a program answer every card itself through the in-memory port', async () => {
    const port = memoryPort({ respond: (shown) => ({ type: 'answered', selected: [shown.options[1]?.label as string] }) });
    expect(await askCard(port, card(), { target, timeoutMs: 1000 })).toEqual({ type: 'answered', selected: ['SQLite'] });
  });

  it('ends the open card when the in-memory port is disposed, and fails later questions closed', async () => {
    const port = memoryPort();
    const open = askCard(port, card(), { target, timeoutMs: 60_000 });
    await port.next();
    port.dispose();
    port.dispose();
    expect(await open).toEqual({ type: 'unavailable', reason: 'the question port was closed' });
    expect(port.attached).toBe(false);
    port.attached = true;
    expect(await askCard(port, card(), { target, timeoutMs: 60_000 })).toEqual({ type: 'unavailable', reason: 'the question port was closed' });
  });

  it('reports a responder that throws as a failed card', async () => {
    const port = memoryPort({
      respond: () => {
        throw new Error('UI crashed');
      },
    });
    expect(await askCard(port, card(), { target, timeoutMs: 1000 })).toEqual({ type: 'failed', reason: 'UI crashed' });
  });

  it('reports a port whose answer breaks the card rules as failed', async () => {
    const port = memoryPort();
    const several = askCard(port, card(), { target, timeoutMs: 1000 });
    (await port.next()).choose('Postgres', 'SQLite');
    expect(await several).toEqual({
      type: 'failed',
      reason: "The question port chose 2 options on a single-choice card. This is a bug in the harness's question port.",
    });
    const typed = askCard(port, card(), { target, timeoutMs: 1000 });
    (await port.next()).type('anything');
    expect(await typed).toEqual({
      type: 'failed',
      reason: "The question port answered with typed text, which the card does not accept. This is a bug in the harness's question port.",
    });
  });

  it('gives the card the timeout and conversation, and a TimeoutError reason when it times out', async () => {
    const port = memoryPort();
    const asked = askCard(port, card(), { target, timeoutMs: 50, conversationId: 'c-9' });
    const shown = await port.next();
    expect(shown.timeoutMs).toBe(50);
    expect(shown.conversationId).toBe('c-9');
    expect(await asked).toEqual({ type: 'timed_out' });
    expect(shown.signal.reason).toBeInstanceOf(DOMException);
    expect((shown.signal.reason as DOMException).name).toBe('TimeoutError');
  });
});
