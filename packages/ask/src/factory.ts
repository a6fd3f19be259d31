import { defineFactory } from '@agent-tools/core';

/**
 * The factory of @agent-tools/ask. It registers its tools when the run has `questionPort`, `targetSpace`.
 * (A shell for now: it registers nothing yet.)
 */
export const askTools = defineFactory({
  name: '@agent-tools/ask',
  needs: ['questionPort', 'targetSpace'],
  create: () => [],
});
