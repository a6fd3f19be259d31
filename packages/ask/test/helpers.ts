import type { QuestionCard } from '../src/index.js';

/** A question card with defaults, for tests. */
export function card(overrides: Partial<QuestionCard> = {}): QuestionCard {
  return {
    kind: 'question',
    question: 'Which database should the service use?',
    context: 'The migration scripts differ.',
    options: [
      { label: 'Postgres', description: "the team's default" },
      { label: 'SQLite', description: 'zero setup' },
      { label: 'MySQL' },
    ],
    allowFreeText: false,
    multiSelect: false,
    ...overrides,
  };
}

export const target = { id: 'test', name: 'the test' } as const;

/** Resolves after `ms`. */
export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
