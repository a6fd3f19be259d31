import { debugTools } from '@agent-tools/debug';
import type { HarnessPlugin } from '../plugin.js';

/** @agent-tools/debug in the harness. */
export const debugPlugin: HarnessPlugin = {
  factory: debugTools,
  resources: () => ({}),
  demo: [],
};
