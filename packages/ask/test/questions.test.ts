import { createRegistry, resultText } from '@agent-tools/core';
import { describe, expect, it } from 'vitest';
import { assumptionsOf, clearAssumptions, createAskTools, detachedPort, memoryPort } from '../src/index.js';
import { PROCEED_ON_ASSUMPTION, PROCEED_ON_ASSUMPTIONS } from '../src/wording.js';
import { target } from './helpers.js';

const three = {
  context: 'Setting up the new inventory service.',
  questions: [
    {
      header: 'Database',
      question: 'Which database should the service use?',
      options: [{ label: 'Postgres', description: "the team's default" }, { label: 'SQLite' }],
      recommended: 'postgres',
    },
    { header: 'Auth', question: 'How do users sign in?', options: [{ label: 'SSO' }, { label: 'Password' }], multi_select: true },
    { question: 'What should the service be called?' },
  ],
};

function run(options: { timeoutMs?: number; port?: ReturnType<typeof memoryPort> } = {}) {
  const port = options.port ?? memoryPort();
  const registry = createRegistry({
    resources: { questionPort: port, targetSpace: target, conversationId: 'conv-1' },
    factories: [createAskTools(options.timeoutMs ? { timeoutMs: options.timeoutMs } : {})],
  });
  return { port, registry };
}

describe('ask_user with several questions on one card', () => {
  it('shows them all on one card and lists each answer', async () => {
    const { port, registry } = run();
    await using _ = registry;
    const call = registry.call('ask_user', three);
    const shown = await port.next();
    expect(port.cards).toHaveLength(1);
    expect(shown.card.context).toBe('Setting up the new inventory service.');
    expect(shown.card.questions?.map((q) => [q.header, q.question, q.multiSelect, q.allowFreeText, q.recommended])).toEqual([
      ['Database', 'Which database should the service use?', false, false, 'Postgres'],
      ['Auth', 'How do users sign in?', true, false, undefined],
      [undefined, 'What should the service be called?', false, true, undefined],
    ]);
    // The first question is repeated in the card's own fields, for ports that only know single questions.
    expect(shown.card.question).toBe('Which database should the service use?');
    shown.answer(
      { type: 'answered', selected: ['sqlite'] },
      { type: 'answered', selected: ['SSO', 'Password'] },
      { type: 'answered', selected: [], text: 'stockroom' },
    );
    const result = await call;
    expect(result.isError).toBe(false);
    expect(resultText(result)).toBe(
      [
        'The user answered all 3 questions on the card:',
        '1. [Database] Which database should the service use? → chose "SQLite".',
        '2. [Auth] How do users sign in? → chose 2 options: "SSO", "Password".',
        '3. What should the service be called? → wrote: "stockroom".',
      ].join('\n'),
    );
    expect(result.structured).toEqual({
      outcome: 'answered',
      answers: [
        { question: 'Which database should the service use?', header: 'Database', outcome: 'answered', selected: ['SQLite'] },
        { question: 'How do users sign in?', header: 'Auth', outcome: 'answered', selected: ['SSO', 'Password'] },
        { question: 'What should the service be called?', outcome: 'answered', selected: [], text: 'stockroom' },
      ],
    });
    expect(assumptionsOf(port)).toEqual([]);
  });

  it('lets single questions be skipped, says what to assume, and records each in the ledger', async () => {
    const { port, registry } = run();
    await using _ = registry;
    const call = registry.call('ask_user', three);
    (await port.next()).answer({ type: 'skipped' }, { type: 'answered', selected: ['SSO'] }, { type: 'skipped' });
    const result = await call;
    expect(result.isError).toBe(false);
    expect(resultText(result)).toBe(
      [
        'The user answered 1 of 3 questions on the card:',
        '1. [Database] Which database should the service use? → skipped.',
        '2. [Auth] How do users sign in? → chose "SSO".',
        '3. What should the service be called? → skipped.',
        `For the skipped questions 1 and 3: ${PROCEED_ON_ASSUMPTIONS} Where you recommended an option, assume it unless you have a reason not to (1. "Postgres").`,
      ].join('\n'),
    );
    const ledger = assumptionsOf(port, { runId: registry.runId });
    expect(ledger).toMatchObject([
      {
        question: 'Which database should the service use?',
        header: 'Database',
        reason: 'skipped',
        assumed: 'Postgres',
        instruction: `${PROCEED_ON_ASSUMPTION} You recommended "Postgres": assume it unless you have a reason not to.`,
        runId: registry.runId,
        conversationId: 'conv-1',
        target: 'test',
      },
      { question: 'What should the service be called?', reason: 'skipped', instruction: PROCEED_ON_ASSUMPTION },
    ]);
    expect(ledger[1]).not.toHaveProperty('assumed');
    expect((result.structured as { assumptions: unknown }).assumptions).toEqual(ledger);
  });

  it('words a skipped or timed-out card of several questions as today, for all of them', async () => {
    const { port, registry } = run({ timeoutMs: 100 });
    await using _ = registry;
    const skipped = registry.call('ask_user', three);
    (await port.next()).skipCard();
    expect(resultText(await skipped)).toBe(
      `The user skipped these 3 questions without answering. ${PROCEED_ON_ASSUMPTIONS} Where you recommended an option, assume it unless you have a reason not to (1. "Postgres").`,
    );
    const timedOut = await registry.call('ask_user', three);
    expect(timedOut.isError).toBe(true);
    expect(resultText(timedOut)).toMatch(/^Nobody answered within 100 ms, so the 3 questions timed out\. Proceed on clearly stated assumptions/);
    expect(assumptionsOf(port).map((a) => a.reason)).toEqual(['skipped', 'skipped', 'skipped', 'timed_out', 'timed_out', 'timed_out']);
  });

  it('counts answering every question with a skip as a skip of the card', async () => {
    const { port, registry } = run();
    await using _ = registry;
    const allSkipped = registry.call('ask_user', three);
    (await port.next()).answer({ type: 'skipped' }, { type: 'skipped' }, { type: 'skipped' });
    const result = await allSkipped;
    expect(resultText(result)).toMatch(/^The user skipped these 3 questions without answering\./);
    expect(result.structured).toMatchObject({ outcome: 'skipped' });
  });

  it('keeps the single-question form, with a header and a recommended option', async () => {
    const { port, registry } = run();
    await using _ = registry;
    const call = registry.call('ask_user', {
      question: 'Flag low stock at 3 or at 5 items?',
      header: 'Threshold',
      options: [{ label: '3' }, { label: '5' }],
      recommended: '5',
    });
    const shown = await port.next();
    expect(shown.card).toMatchObject({ question: 'Flag low stock at 3 or at 5 items?', header: 'Threshold', recommended: '5' });
    expect(shown.card.questions).toBeUndefined();
    shown.skipCard();
    expect(resultText(await call)).toBe(
      `The user skipped this question without answering. ${PROCEED_ON_ASSUMPTION} You recommended "5": assume it unless you have a reason not to.`,
    );
    expect(assumptionsOf(port)).toMatchObject([{ question: 'Flag low stock at 3 or at 5 items?', header: 'Threshold', assumed: '5' }]);
  });

  it('answers a one-entry questions list like the single form', async () => {
    const { port, registry } = run();
    await using _ = registry;
    const call = registry.call('ask_user', { questions: [{ question: 'Name?' }] });
    (await port.next()).type('stockroom');
    const result = await call;
    expect(resultText(result)).toBe('The user wrote: "stockroom".');
    expect(result.structured).toEqual({ outcome: 'answered', selected: [], text: 'stockroom' });
  });

  it('keeps the ledger per run and conversation, and lets a harness clear it', async () => {
    const port = detachedPort('nobody is here');
    const first = createRegistry({ resources: { questionPort: port, targetSpace: target, conversationId: 'a' }, factories: [createAskTools()] });
    const second = createRegistry({ resources: { questionPort: port, targetSpace: target, conversationId: 'b' }, factories: [createAskTools()] });
    await first.call('ask_user', { question: 'One?' });
    await second.call('ask_user', three);
    expect(assumptionsOf(port, { runId: first.runId }).map((a) => [a.question, a.reason])).toEqual([['One?', 'unavailable']]);
    expect(assumptionsOf(port, { conversationId: 'b' })).toHaveLength(3);
    clearAssumptions(port, { runId: second.runId });
    expect(assumptionsOf(port).map((a) => a.question)).toEqual(['One?']);
    await first.dispose();
    await second.dispose();
  });
});

describe('ask_user refuses malformed cards of several questions, naming the field', () => {
  const cases: [string, unknown, string][] = [
    [
      'more than four questions',
      { questions: Array.from({ length: 5 }, (_, i) => ({ question: `q${i}?` })) },
      '`questions`',
    ],
    ['an empty list', { questions: [] }, '`questions`'],
    [
      'question beside questions',
      { question: 'Which?', questions: [{ question: 'a?' }] },
      "`question`: with questions, give each question's fields inside its entry of questions, not beside them",
    ],
    [
      'a duplicate label in the second question',
      { questions: [{ question: 'a?' }, { question: 'b?', options: [{ label: 'X' }, { label: 'x' }] }] },
      '`questions[1].options[1].label`: the label "x" repeats option 1; labels must be unique',
    ],
    [
      'a recommended option that is not an option',
      { questions: [{ question: 'a?', options: [{ label: 'Yes' }, { label: 'No' }], recommended: 'Maybe' }, { question: 'b?' }] },
      '`questions[0].recommended`: "Maybe" is not one of the options ("Yes", "No"); name the recommended option by its label',
    ],
    ['the same question twice', { questions: [{ question: 'Same?' }, { question: 'same?' }] }, '`questions[1].question`: it repeats question 1'],
    ['a header too long', { question: 'a?', header: 'x'.repeat(31) }, '`header`'],
  ];
  for (const [name, args, expected] of cases) {
    it(`refuses ${name}`, async () => {
      const { port, registry } = run();
      await using _ = registry;
      const result = await registry.call('ask_user', args);
      expect(result.isError).toBe(true);
      expect(resultText(result)).toContain(expected);
      expect(port.cards).toHaveLength(0);
    });
  }
});

describe('a port that answers with the wrong shape', () => {
  const mistakes: [string, (card: { respond(o: Record<string, unknown>): void }) => void, string, boolean?][] = [
    ['no type', (c) => c.respond({ text: 'hi' }), 'The question port answered {"text":"hi"}, which has no `type`', false],
    ['an unknown type', (c) => c.respond({ type: 'done' }), 'The question port answered with type "done", which is not an outcome'],
    ['selected that is not a list', (c) => c.respond({ type: 'answered', selected: 'SQLite' }), 'gave `selected` that is not a list of labels ("SQLite")'],
    ['one answer for three questions', (c) => c.respond({ type: 'answered', selected: ['SQLite'] }), 'answered a card of 3 questions with one answer', true],
    ['too few answers', (c) => c.respond({ type: 'answered', answers: [{ type: 'skipped' }] }), 'gave 1 answer(s) for a card of 3 question(s)', true],
    [
      'an unknown label in the second answer',
      (c) => c.respond({ type: 'answered', answers: [{ type: 'skipped' }, { type: 'answered', selected: ['Magic'] }, { type: 'skipped' }] }),
      'for question 2 ("How do users sign in?") answered "Magic", which is not an option of the card',
      true,
    ],
  ];
  for (const [name, respond, expected, several] of mistakes) {
    it(`is a clear error naming the port's mistake: ${name}`, async () => {
      const { port, registry } = run();
      await using _ = registry;
      const call = registry.call('ask_user', several ? three : { question: 'Which database?', options: [{ label: 'SQLite' }, { label: 'Postgres' }] });
      respond(await port.next());
      const result = await call;
      expect(result.isError).toBe(true);
      const text = resultText(result);
      expect(text).toMatch(/^The questions? could not be asked: The question port /);
      expect(text).toContain(expected);
      expect(text).toContain("This is a bug in the harness's question port.");
      expect(text).not.toContain('Cannot destructure');
      expect(result.structured).toMatchObject({ outcome: 'failed' });
    });
  }
});
