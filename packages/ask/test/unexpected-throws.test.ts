import { createRegistry, resultText } from '@agent-tools/core';
import { unhandledRejections } from '@agent-tools/test-utils';
import { describe, expect, it } from 'vitest';
import { askCard, createAskTools, memoryPort, permissionApproval, terminalPort } from '../src/index.js';
import { card, target } from './helpers.js';

describe('a bug in the question port (injected: its ask throws a TypeError)', () => {
  it('reaches the harness onError once, and the model still gets the failed question as an answer', async () => {
    const port = memoryPort();
    const bug = new TypeError("Cannot read properties of undefined (reading 'render')");
    port.ask = () => {
      throw bug;
    };
    const seen: unknown[] = [];
    await using registry = createRegistry({
      resources: { questionPort: port, targetSpace: target, conversationId: 'c1' },
      factories: [createAskTools()],
      onError: (error) => void seen.push(error),
    });
    const result = await registry.call('ask_user', { question: 'Proceed?', options: [{ label: 'Yes' }, { label: 'No' }] });
    expect(result.isError).toBe(true);
    expect(resultText(result)).toContain("Cannot read properties of undefined (reading 'render')");
    expect(seen).toEqual([bug]);
  });
});

describe('a bug in the question port asked for a permission (injected: its ask throws a TypeError)', () => {
  it("reaches the onPortError the harness wires to its onError, once, and the call is refused", async () => {
    const port = memoryPort();
    const bug = new TypeError("Cannot read properties of undefined (reading 'render')");
    port.ask = () => {
      throw bug;
    };
    const seen: unknown[] = [];
    const approve = permissionApproval({ port, target, onPortError: (error) => void seen.push(error) });
    const decision = await approve({ tool: 'write', tier: 'write', args: {}, surface: { name: 'default', tiers: ['read', 'write', 'exec'] }, conversationId: 'c1', bridged: false, signal: new AbortController().signal });
    expect(decision).toEqual({ approved: false, reason: expect.stringContaining('could not be shown') });
    expect(seen).toEqual([bug]);
  });
});

describe('a harness logger that throws while a port bug is told to it (injected: onPortError throws)', () => {
  it('still refuses the call, leaves no unhandled rejection, and the port shows the next card', async () => {
    const port = memoryPort();
    const bug = new TypeError("Cannot read properties of undefined (reading 'render')");
    const ask = port.ask.bind(port);
    let broken = true;
    port.ask = (card, options) => {
      if (!broken) return ask(card, options);
      broken = false;
      throw bug;
    };
    using unhandled = unhandledRejections();
    const approve = permissionApproval({
      port,
      target,
      onPortError: () => {
        throw new Error('the log stream is closed');
      },
    });
    const request = { tool: 'write', tier: 'write', args: {}, surface: { name: 'default', tiers: ['read', 'write', 'exec'] }, conversationId: 'c1', bridged: false, signal: new AbortController().signal } as const;
    expect(await approve(request)).toEqual({ approved: false, reason: expect.stringContaining("could not be shown (Cannot read properties of undefined (reading 'render'))") });
    const second = approve(request);
    (await port.next()).choose('Allow once');
    expect(await second).toBe(true);
    await new Promise((resolve) => setImmediate(resolve));
    expect(unhandled.seen).toEqual([]);
  });
});

describe('a bug in the port while a queued card comes up (injected: its attached getter throws)', () => {
  it('fails that card, tells onPortError once, and leaves no unhandled rejection', async () => {
    const port = memoryPort();
    const first = askCard(port, card(), { target, timeoutMs: 60_000 });
    const seen: unknown[] = [];
    const queued = askCard(port, card({ question: 'second?' }), { target, timeoutMs: 60_000, onPortError: (error) => void seen.push(error) });
    const shown = await port.next();
    const bug = new TypeError("Cannot read properties of null (reading 'readyState')");
    Object.defineProperty(port, 'attached', {
      get() {
        throw bug;
      },
    });
    using unhandled = unhandledRejections();
    shown.choose('Postgres');
    expect(await first).toEqual({ type: 'answered', selected: ['Postgres'] });
    expect(await queued).toEqual({ type: 'failed', reason: "Cannot read properties of null (reading 'readyState')" });
    expect(seen).toEqual([bug]);
    await new Promise((resolve) => setImmediate(resolve));
    expect(unhandled.seen).toEqual([]);
  });
});

describe('a bug outside any card (injected: the harness terminal’s write throws for a line read after its card timed out)', () => {
  it('reaches onError once as phase background instead of an unhandled rejection', async () => {
    const readers: ((line: string) => void)[] = [];
    const bug = new TypeError("Cannot read properties of null (reading 'write')");
    let broken = false;
    const terminal = {
      readLine: () => new Promise<string>((resolve) => readers.push(resolve)),
      write: () => {
        if (broken) throw bug;
      },
    };
    const seen: { error: unknown; context: unknown }[] = [];
    using unhandled = unhandledRejections();
    await using registry = createRegistry({
      resources: { questionPort: terminalPort(terminal), targetSpace: target, conversationId: 'c1' },
      factories: [createAskTools({ timeoutMs: 50 })],
      onError: (error, context) => void seen.push({ error, context }),
    });
    const result = await registry.call('ask_user', { question: 'Proceed?', options: [{ label: 'Yes' }, { label: 'No' }] });
    expect(resultText(result)).toContain('timed out');
    broken = true;
    readers.shift()?.('yes');
    await new Promise((resolve) => setImmediate(resolve));
    expect(seen).toEqual([{ error: bug, context: { phase: 'background', factory: '@agent-tools/ask' } }]);
    expect(unhandled.seen).toEqual([]);
  });
});
