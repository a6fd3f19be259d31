import { askTools, detachedPort } from '@agent-tools/ask';
import { harnessQuestionPort, TERMINAL_TARGET } from '../approval.js';
import { rememberQuestionPort } from '../assumed.js';
import type { HarnessPlugin } from '../plugin.js';

/**
 * @agent-tools/ask in the harness. ask_user is always registered: with a human at the terminal (or --interactive)
 * its cards render there; without one the port is detached and every question fails at once (fail-closed, SPEC §8),
 * so the model hears that nobody can answer and proceeds on a stated assumption instead of asking in chat.
 */
export const askPlugin: HarnessPlugin = {
  factory: askTools,
  resources: (env) => {
    // An MCP session's port: its client shows the cards; nothing is kept here once the session ends.
    if (env.questions) {
      return { questionPort: env.questions.port, targetSpace: env.questions.target };
    }
    const questionPort = env.terminal
      ? harnessQuestionPort(env.terminal)
      : detachedPort('the harness runs without a terminal, so no human is attached');
    rememberQuestionPort(env.conversationId, questionPort);
    return { questionPort, targetSpace: TERMINAL_TARGET };
  },
  demo: [
    {
      title: 'ask_user with nobody at a terminal fails at once (fail-closed) and says to proceed on a stated assumption',
      tool: 'ask_user',
      args: {
        question: 'Should low stock be flagged at 3 or at 5 items?',
        context: 'The threshold decides which items the report lists.',
        options: [{ label: '3', description: 'fewer, more urgent items' }, { label: '5' }],
      },
      expectError: true,
    },
    {
      title: 'Several questions go on one card (questions[]); with nobody attached they fail closed together',
      tool: 'ask_user',
      args: {
        questions: [
          { header: 'Threshold', question: 'Flag low stock at 3 or at 5 items?', options: [{ label: '3' }, { label: '5' }], recommended: '5' },
          { header: 'Format', question: 'Report as a table or as CSV?', options: [{ label: 'table' }, { label: 'CSV' }] },
        ],
      },
      expectError: true,
    },
    {
      title: 'A card with a repeated label is refused, naming the field',
      tool: 'ask_user',
      args: { question: 'Which format?', options: [{ label: 'JSON' }, { label: 'json' }] },
      expectError: true,
    },
    {
      title: 'ask_user is read tier: plan mode sees it too',
      tool: 'ask_user',
      args: { question: 'Plan: split the report into two files?' },
      surface: 'plan',
      expectError: true,
    },
  ],
};
