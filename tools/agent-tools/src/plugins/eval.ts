import { evalTools } from '@agent-tools/eval';
import type { HarnessPlugin } from '../plugin.js';

/** @agent-tools/eval in the harness. */
export const evalPlugin: HarnessPlugin = {
  factory: evalTools,
  resources: () => ({}),
  demo: [],
};
