import { askTools } from '@agent-tools/ask';
import type { HarnessPlugin } from '../plugin.js';

/** @agent-tools/ask in the harness. */
export const askPlugin: HarnessPlugin = {
  factory: askTools,
  resources: () => ({}),
  demo: [],
};
