import { defineFactory } from '@agent-tools/core';

/**
 * The factory of @agent-tools/ast. It registers its tools when the run has `cwd`, `treeSitter`.
 * (A shell for now: it registers nothing yet.)
 */
export const astTools = defineFactory({
  name: '@agent-tools/ast',
  needs: ['cwd', 'treeSitter'],
  create: () => [],
});
