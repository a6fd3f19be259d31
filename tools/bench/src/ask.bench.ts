import { PassThrough } from 'node:stream';
import { askCard, askTools, askUserParameters, memoryPort, terminalPort } from '@agent-tools/ask';
import { createRegistry, defineTool, textResult } from '@agent-tools/core';
import { measure, timingTable } from './measure.js';

/**
 * ask: the cost of a question on top of the registry, with the human replaced by a program (in-memory port) and by
 * piped lines (terminal port). The reference is a registry call of a trivial read tool with the same parameter
 * schema. 1000 calls per sample.
 */
const CALLS = 1000;
const port = memoryPort({ respond: (card) => ({ type: 'answered', selected: [card.options[0]?.label as string] }) });
const echo = defineTool({
  name: 'echo',
  tier: 'read',
  description: 'Echoes.',
  // The same schema as ask_user, so validation costs the same on both sides.
  parameters: askUserParameters,
  parallelSafe: true,
  execute: ({ question }) => textResult(question ?? ''),
});
const registry = createRegistry({
  resources: { questionPort: port, targetSpace: { id: 'bench' } },
  factories: [askTools],
  tools: [echo],
});
const question = { question: 'Which database?', options: [{ label: 'Postgres' }, { label: 'SQLite' }] };

const input = new PassThrough();
const output = new PassThrough();
output.resume();
const terminal = terminalPort({ input, output });
const card = { kind: 'question', question: 'Which database?', options: [{ label: 'Postgres' }, { label: 'SQLite' }], allowFreeText: false, multiSelect: false } as const;

try {
  const timings = [
    await measure(`reference: ${CALLS} registry calls of a trivial read tool (same schema)`, async () => {
      for (let i = 0; i < CALLS; i++) await registry.call('echo', question);
    }),
    await measure(`${CALLS} ask_user calls answered by the in-memory port`, async () => {
      for (let i = 0; i < CALLS; i++) await registry.call('ask_user', question);
    }),
    await measure(`${CALLS} cards rendered and answered over piped lines (terminal port)`, async () => {
      for (let i = 0; i < CALLS; i++) {
        const asked = askCard(terminal, card, { target: { id: 'bench' }, timeoutMs: 10_000 });
        input.write('2\n');
        await asked;
      }
    }),
  ];
  console.log(timingTable(timings));
} finally {
  terminal.close();
  await registry.dispose();
}
