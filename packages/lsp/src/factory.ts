import { defineFactory } from '@agent-tools/core';
import type { LspSupervisor } from './supervisor.js';
import { CodeActionListings } from './tools/code-action-listings.js';
import { lspTool } from './tools/lsp.js';
import { lspFixTool } from './tools/lsp-fix.js';
import { lspRenameTool } from './tools/lsp-rename.js';

declare module '@agent-tools/core' {
  interface Resources {
    /** The run's language-server supervisor (`createLspSupervisor({ cwd })`). */
    lspSupervisor?: LspSupervisor;
  }
}

/**
 * The factory of @agent-tools/lsp: `lsp` (read), `lsp_rename` and `lsp_fix` (write), registered when the run has a
 * working directory and a language-server supervisor. Pass the same supervisor as the run's `diagnostics`
 * resource so that writes report the diagnostics they introduce.
 */
export const lspTools = defineFactory({
  name: '@agent-tools/lsp',
  needs: ['cwd', 'lspSupervisor'],
  create: ({ cwd, lspSupervisor }, run) => {
    const env = { supervisor: lspSupervisor, cwd, listings: new CodeActionListings() };
    // Bugs in the servers' handlers, outside any call, go to the run's onError.
    const stop = run ? lspSupervisor.onBackgroundError(run.reportError) : () => undefined;
    return { tools: [lspTool(env), lspRenameTool(env), lspFixTool(env)], dispose: stop };
  },
});
