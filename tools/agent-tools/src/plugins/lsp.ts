import { lspTools } from '@agent-tools/lsp';
import type { HarnessPlugin } from '../plugin.js';

/** @agent-tools/lsp in the harness. */
export const lspPlugin: HarnessPlugin = {
  factory: lspTools,
  resources: () => ({}),
  demo: [],
};
