import { defineFactory } from '@agent-tools/core';

/**
 * The factory of @agent-tools/debug. It registers its tools when the run has `cwd`, `conversationId`, `debugSupervisor`.
 * (A shell for now: it registers nothing yet.)
 */
export const debugTools = defineFactory({
  name: '@agent-tools/debug',
  needs: ['cwd', 'conversationId', 'debugSupervisor'],
  create: () => [],
});
