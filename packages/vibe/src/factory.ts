import { defineFactory } from '@agent-tools/core';

/**
 * The factory of @agent-tools/vibe. It registers its tools when the run has `workerList`.
 * (A shell for now: it registers nothing yet.)
 */
export const vibeTools = defineFactory({
  name: '@agent-tools/vibe',
  needs: ['workerList'],
  create: () => [],
});
