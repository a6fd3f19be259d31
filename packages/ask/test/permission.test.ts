import { createRegistry, defineTool, resultText, textResult } from '@agent-tools/core';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { askTools, detachedPort, memoryPort, permissionApproval, permissionCard } from '../src/index.js';
import { PERMISSION_LABELS } from '../src/permission.js';
import { sleep, target } from './helpers.js';

/** A write-tier tool standing in for lsp_rename, counting its runs. */
function renameTool() {
  let runs = 0;
  const tool = defineTool({
    name: 'lsp_rename',
    tier: 'write',
    description: 'Renames a symbol.',
    parameters: z.object({ file: z.string(), line: z.number(), symbol: z.string(), new_name: z.string() }),
    parallelSafe: true,
    execute: () => textResult(`renamed (run ${++runs})`),
  });
  return { tool, runs: () => runs };
}

const args = { file: 'src/a.ts', line: 3, symbol: 'total', new_name: 'sum' };

function run(port = memoryPort(), timeoutMs?: number) {
  const rename = renameTool();
  const registry = createRegistry({
    resources: { questionPort: port, targetSpace: target, conversationId: 'conv-1' },
    factories: [askTools],
    tools: [rename.tool],
    approve: permissionApproval({ port, target, ...(timeoutMs ? { timeoutMs } : {}) }),
  });
  return { port, registry, runs: rename.runs };
}

describe('permission cards', () => {
  it('word the request as a question with allow once / allow for this run / deny', () => {
    const shown = permissionCard({ tool: 'lsp_rename', tier: 'write', args, bridged: false });
    expect(shown).toEqual({
      kind: 'permission',
      question: 'Allow lsp_rename on src/a.ts?',
      context: 'lsp_rename changes files (write tier). Arguments: {"file":"src/a.ts","line":3,"symbol":"total","new_name":"sum"}',
      options: [
        { label: 'Allow once', description: 'Run this call.' },
        { label: 'Allow for this run', description: 'Run every lsp_rename call of this run without asking again.' },
        { label: 'Deny', description: 'Refuse it; the model is told you said no.' },
      ],
      allowFreeText: true,
      multiSelect: false,
    });
  });

  it('name the action and say when another tool made the call', () => {
    const shown = permissionCard({ tool: 'debug', tier: 'exec', args: { action: 'launch', program: 'app.py' }, bridged: true });
    expect(shown.question).toBe('Allow debug launch on app.py?');
    expect(shown.context).toContain('debug starts or drives a process (exec tier). It was made by another tool');
    expect(permissionCard({ tool: 'eval', tier: 'exec', args: { code: 'x' }, bridged: false }).question).toBe('Allow eval?');
  });

  it('allow once runs the call and asks again next time', async () => {
    const { port, registry, runs } = run();
    await using _ = registry;
    const first = registry.call('lsp_rename', args);
    const card = await port.next();
    expect(card.card.question).toBe('Allow lsp_rename on src/a.ts?');
    expect(card.conversationId).toBe('conv-1');
    card.choose(PERMISSION_LABELS.once);
    expect(resultText(await first)).toBe('renamed (run 1)');
    const second = registry.call('lsp_rename', args);
    (await port.next()).choose(PERMISSION_LABELS.once);
    expect(resultText(await second)).toBe('renamed (run 2)');
    expect(runs()).toBe(2);
  });

  it('allow for this run stops asking about that tool', async () => {
    const { port, registry, runs } = run();
    await using _ = registry;
    const first = registry.call('lsp_rename', args);
    (await port.next()).choose(PERMISSION_LABELS.run);
    await first;
    expect(resultText(await registry.call('lsp_rename', args))).toBe('renamed (run 2)');
    expect(port.cards).toHaveLength(1);
    expect(runs()).toBe(2);
  });

  it('deny refuses, and a typed answer is passed to the model as the reason', async () => {
    const { port, registry, runs } = run();
    await using _ = registry;
    const denied = registry.call('lsp_rename', args);
    (await port.next()).choose(PERMISSION_LABELS.deny);
    expect(resultText(await denied)).toBe(
      'The user did not allow this lsp_rename call. Do not repeat the same call; change the approach or ask the user.',
    );
    const redirected = registry.call('lsp_rename', args);
    (await port.next()).type('call it grandTotal instead');
    expect(resultText(await redirected)).toBe(
      'The user did not allow this lsp_rename call. Reason given: the user said: "call it grandTotal instead". Do not repeat the same call; change the approach or ask the user.',
    );
    expect(runs()).toBe(0);
  });

  it('refuses on a skip and on a timeout', async () => {
    const { port, registry, runs } = run(memoryPort(), 100);
    await using _ = registry;
    const skipped = registry.call('lsp_rename', args);
    (await port.next()).skipCard();
    expect(resultText(await skipped)).toContain('Reason given: the user skipped the permission card without allowing the call. Do not repeat');
    const timedOut = await registry.call('lsp_rename', args);
    expect(resultText(timedOut)).toContain('Reason given: nobody answered the permission card within 100 ms. Do not repeat');
    expect(runs()).toBe(0);
  });

  it('refuses at once with no human attached (fail-closed)', async () => {
    const port = detachedPort('no human is attached (the harness runs without a terminal)');
    const { registry, runs } = run(port as ReturnType<typeof memoryPort>);
    await using _ = registry;
    const result = await registry.call('lsp_rename', args);
    expect(result.isError).toBe(true);
    expect(resultText(result)).toContain('Reason given: no human is attached (the harness runs without a terminal) to approve it. Do not repeat');
    expect(runs()).toBe(0);
  });

  it('withdraws the card when the call is cancelled', async () => {
    const { port, registry, runs } = run();
    await using _ = registry;
    const controller = new AbortController();
    const call = registry.call('lsp_rename', args, { signal: controller.signal });
    const card = await port.next();
    controller.abort();
    expect((await call).isError).toBe(true);
    expect(card.withdrawn).toBe(true);
    expect(runs()).toBe(0);
  });

  it('queues with ask_user questions on the same port: one card at a time', async () => {
    const { port, registry } = run();
    await using _ = registry;
    const question = registry.call('ask_user', { question: 'Rename everything?', options: [{ label: 'yes' }, { label: 'no' }] });
    const first = await port.next();
    const rename = registry.call('lsp_rename', args);
    await sleep(50);
    expect(first.card.kind).toBe('question');
    expect(port.open).toEqual([first]);
    first.choose('yes');
    const second = await port.next();
    expect(second.card.kind).toBe('permission');
    second.choose(PERMISSION_LABELS.once);
    expect(resultText(await question)).toBe('The user chose "yes".');
    expect(resultText(await rename)).toBe('renamed (run 1)');
  });
});
