import { defineFactory } from '@agent-tools/core';

/**
 * The factory of @agent-tools/eval. It registers its tools when the run has `kernelFactory`.
 * (A shell for now: it registers nothing yet.)
 */
export const evalTools = defineFactory({
  name: '@agent-tools/eval',
  needs: ['kernelFactory'],
  create: () => [],
});
