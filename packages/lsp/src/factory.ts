import { defineFactory } from '@agent-tools/core';

/**
 * The factory of @agent-tools/lsp. It registers its tools when the run has `cwd`, `lspSupervisor`.
 * (A shell for now: it registers nothing yet.)
 */
export const lspTools = defineFactory({
  name: '@agent-tools/lsp',
  needs: ['cwd', 'lspSupervisor'],
  create: () => [],
});
