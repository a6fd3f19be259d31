import { astTools } from '@agent-tools/ast';
import type { HarnessPlugin } from '../plugin.js';

/** @agent-tools/ast in the harness. */
export const astPlugin: HarnessPlugin = {
  factory: astTools,
  resources: () => ({}),
  demo: [],
};
