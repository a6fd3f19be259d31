import { createRegistry, resultText, toolSchema } from '@agent-tools/core';
import { factoryContract } from '@agent-tools/test-utils';
import { describe, expect, it } from 'vitest';
import { askTools, createAskTools, detachedPort, memoryPort } from '../src/index.js';
import { askUserTool } from '../src/tools/ask-user.js';
import { PROCEED_ON_ASSUMPTION } from '../src/wording.js';
import { sleep, target } from './helpers.js';

factoryContract({
  factory: askTools,
  resources: () => ({ questionPort: memoryPort(), targetSpace: target }),
  tools: { ask_user: 'read' },
  call: { tool: 'ask_user', args: { question: 'Proceed?', options: [{ label: 'Yes' }, { label: 'No' }] } },
});

const question = {
  question: 'Which database should the service use?',
  context: 'The migration scripts differ.',
  options: [{ label: 'Postgres', description: "the team's default" }, { label: 'SQLite' }, { label: 'MySQL' }],
};

function run(options: { timeoutMs?: number; port?: ReturnType<typeof memoryPort> } = {}) {
  const port = options.port ?? memoryPort();
  const registry = createRegistry({
    resources: { questionPort: port, targetSpace: target, conversationId: 'conv-1' },
    factories: [createAskTools(options.timeoutMs ? { timeoutMs: options.timeoutMs } : {})],
  });
  return { port, registry };
}

describe('ask_user schema', () => {
  it('is the JSON Schema the model sees', () => {
    const tool = askUserTool({ port: memoryPort(), target, timeoutMs: 1000 });
    expect(toolSchema(tool).inputSchema).toMatchSnapshot();
    expect(tool.tier).toBe('read');
    expect(tool.description).toContain('never write a question in a chat message');
    expect(tool.description).toContain('proceed on a clearly stated assumption');
  });

  it('is seen on the plan and subagent surfaces', async () => {
    await using registry = run().registry;
    expect(registry.tools('plan').map((t) => t.name)).toEqual(['ask_user']);
    expect(registry.tools('subagent').map((t) => t.name)).toEqual(['ask_user']);
  });
});

describe('ask_user validation', () => {
  const cases: [string, unknown, string][] = [
    ['an empty question', { question: '  ' }, '`question`: the question is empty'],
    ['a missing question', {}, '`question`: give the question to ask (or questions, for several on one card)'],
    [
      'duplicate labels, whatever their case',
      { question: 'q?', options: [{ label: 'Yes' }, { label: 'yes' }] },
      '`options[1].label`: the label "yes" repeats option 1; labels must be unique',
    ],
    [
      'an empty label',
      { question: 'q?', options: [{ label: 'a' }, { label: ' ' }] },
      '`options[1].label`: an option label is empty',
    ],
    [
      'nothing that could be answered',
      { question: 'q?', allow_free_text: false },
      '`allow_free_text`: with no options the human can only type an answer',
    ],
    [
      'multi-select over one option',
      { question: 'q?', options: [{ label: 'a' }], multi_select: true },
      '`multi_select`: multiple choice needs at least two options',
    ],
    ['an unknown option field', { question: 'q?', options: [{ label: 'a', value: 1 }] }, '`options[0]`'],
    ['a wrong type', { question: 'q?', multi_select: 'yes' }, '`multi_select` must be a boolean'],
  ];
  for (const [name, args, expected] of cases) {
    it(`refuses ${name}, naming the field`, async () => {
      const { port, registry } = run();
      await using _ = registry;
      const result = await registry.call('ask_user', args);
      expect(result.isError).toBe(true);
      expect(resultText(result)).toContain(expected);
      expect(port.cards).toHaveLength(0);
    });
  }
});

describe('ask_user answers', () => {
  it('returns the chosen label, and renders the card with the conversation and target', async () => {
    const { port, registry } = run();
    await using _ = registry;
    const call = registry.call('ask_user', question);
    const shown = await port.next();
    expect(shown.card).toEqual({
      kind: 'question',
      question: question.question,
      context: question.context,
      options: [{ label: 'Postgres', description: "the team's default" }, { label: 'SQLite' }, { label: 'MySQL' }],
      allowFreeText: false,
      multiSelect: false,
    });
    expect(shown.target).toEqual(target);
    expect(shown.conversationId).toBe('conv-1');
    shown.choose('sqlite');
    const result = await call;
    expect(result.isError).toBe(false);
    expect(resultText(result)).toBe('The user chose "SQLite".');
    expect(result.structured).toEqual({ outcome: 'answered', selected: ['SQLite'] });
  });

  it('returns every label of a multi-select answer, with typed text', async () => {
    const { port, registry } = run();
    await using _ = registry;
    const call = registry.call('ask_user', { ...question, multi_select: true, allow_free_text: true });
    (await port.next()).type('but only for tests', 'Postgres', 'MySQL');
    const result = await call;
    expect(resultText(result)).toBe('The user chose 2 options: "Postgres", "MySQL" and wrote: "but only for tests".');
    expect(result.structured).toEqual({ outcome: 'answered', selected: ['Postgres', 'MySQL'], text: 'but only for tests' });
  });

  it('accepts free text by default for an open question', async () => {
    const { port, registry } = run();
    await using _ = registry;
    const call = registry.call('ask_user', { question: 'What should the CLI be called?' });
    const shown = await port.next();
    expect(shown.card.allowFreeText).toBe(true);
    shown.type('inv');
    expect(resultText(await call)).toBe('The user wrote: "inv".');
  });

  it('treats a skip as success with the instruction to proceed on a stated assumption', async () => {
    const { port, registry } = run();
    await using _ = registry;
    const call = registry.call('ask_user', question);
    (await port.next()).skipCard();
    const result = await call;
    expect(result.isError).toBe(false);
    expect(resultText(result)).toBe(`The user skipped this question without answering. ${PROCEED_ON_ASSUMPTION}`);
    expect(PROCEED_ON_ASSUMPTION).toContain('do not ask this question again');
    expect(result.structured).toMatchObject({ outcome: 'skipped', assumptions: [{ question: question.question, reason: 'skipped' }] });
  });

  it('treats a timeout as an error with the same instruction, and withdraws the card', async () => {
    const { port, registry } = run({ timeoutMs: 150 });
    await using _ = registry;
    const result = await registry.call('ask_user', question);
    expect(result.isError).toBe(true);
    expect(resultText(result)).toBe(`Nobody answered within 150 ms, so the question timed out. ${PROCEED_ON_ASSUMPTION}`);
    expect(port.cards[0]?.withdrawn).toBe(true);
    expect(result.structured).toMatchObject({ outcome: 'timed_out', assumptions: [{ reason: 'timed_out' }] });
  });

  it('reports a timeout the port itself saw', async () => {
    const { port, registry } = run({ timeoutMs: 120_000 });
    await using _ = registry;
    const call = registry.call('ask_user', question);
    (await port.next()).timeOut();
    const result = await call;
    expect(result.isError).toBe(true);
    expect(resultText(result)).toContain('Nobody answered within 2 min, so the question timed out.');
  });

  it('reports a port that answers an option the card never offered as a failure, not as an answer', async () => {
    const { port, registry } = run();
    await using _ = registry;
    const call = registry.call('ask_user', question);
    (await port.next()).choose('Oracle');
    const result = await call;
    expect(result.isError).toBe(true);
    expect(resultText(result)).toBe(
      `The question could not be asked: The question port answered "Oracle", which is not an option of the card. This is a bug in the harness's question port. ${PROCEED_ON_ASSUMPTION}`,
    );
  });
});

describe('ask_user with no human attached', () => {
  it('fails at once with a detached port (fail-closed)', async () => {
    await using registry = createRegistry({
      resources: { questionPort: detachedPort(), targetSpace: target },
      factories: [askTools],
    });
    const result = await registry.call('ask_user', question);
    expect(result.isError).toBe(true);
    expect(resultText(result)).toBe(
      `The question could not reach a human (no human is attached to this run), so nobody answered it: questions fail closed rather than wait for nobody. ${PROCEED_ON_ASSUMPTION} Do not call ask_user again in this run.`,
    );
    expect(result.structured).toMatchObject({ outcome: 'unavailable', assumptions: [{ reason: 'unavailable' }] });
  });

  it('fails at once when the port says nobody is attached, without showing a card', async () => {
    const { port, registry } = run({ port: memoryPort({ attached: false }) });
    await using _ = registry;
    const result = await registry.call('ask_user', question);
    expect(resultText(result)).toContain('(no human is attached to the test)');
    expect(port.cards).toHaveLength(0);
  });

  it('ends a shown card and the queued ones when the human goes away', async () => {
    const { port, registry } = run();
    await using _ = registry;
    const first = registry.call('ask_user', question);
    const second = registry.call('ask_user', { question: 'And the cache?' });
    await port.next();
    port.attached = false;
    expect(resultText(await first)).toContain('could not reach a human (the human went away)');
    expect(resultText(await second)).toContain('could not reach a human (no human is attached to the test)');
    expect(port.cards).toHaveLength(1);
  });
});

describe('ask_user queueing and withdrawal', () => {
  it('shows concurrent questions one card at a time, in order', async () => {
    const { port, registry } = run();
    await using _ = registry;
    const first = registry.call('ask_user', question);
    const second = registry.call('ask_user', { question: 'Name the service?' });
    const a = await port.next();
    await sleep(50);
    expect(port.open).toEqual([a]);
    expect(port.cards).toHaveLength(1);
    a.choose('Postgres');
    const b = await port.next();
    expect(b.card.question).toBe('Name the service?');
    b.type('inventory');
    expect(resultText(await first)).toBe('The user chose "Postgres".');
    expect(resultText(await second)).toBe('The user wrote: "inventory".');
  });

  it('withdraws the card of a cancelled call and shows the next one', async () => {
    const { port, registry } = run();
    await using _ = registry;
    const controller = new AbortController();
    const first = registry.call('ask_user', question, { signal: controller.signal });
    const second = registry.call('ask_user', { question: 'Name the service?' });
    const a = await port.next();
    controller.abort();
    const cancelled = await first;
    expect(cancelled.isError).toBe(true);
    expect(resultText(cancelled)).toBe('ask_user was cancelled before it finished.');
    expect(a.withdrawn).toBe(true);
    const b = await port.next();
    b.type('inventory');
    expect(resultText(await second)).toBe('The user wrote: "inventory".');
  });

  it('never shows a queued card whose call was cancelled', async () => {
    const { port, registry } = run();
    await using _ = registry;
    const controller = new AbortController();
    const first = registry.call('ask_user', question);
    const second = registry.call('ask_user', { question: 'Never shown?' }, { signal: controller.signal });
    const third = registry.call('ask_user', { question: 'Shown second?' });
    const a = await port.next();
    controller.abort();
    expect((await second).isError).toBe(true);
    a.choose('MySQL');
    await first;
    const next = await port.next();
    expect(next.card.question).toBe('Shown second?');
    next.skipCard();
    await third;
    expect(port.cards.map((c) => c.card.question)).toEqual([question.question, 'Shown second?']);
  });

  it('withdraws the open card when the run is disposed', async () => {
    const { port, registry } = run();
    const call = registry.call('ask_user', question);
    const a = await port.next();
    await registry.dispose();
    expect(resultText(await call)).toBe('ask_user was cancelled because the run ended.');
    expect(a.withdrawn).toBe(true);
  });
});
