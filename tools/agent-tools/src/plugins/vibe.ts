import { vibeTools } from '@agent-tools/vibe';
import type { HarnessPlugin } from '../plugin.js';

/** @agent-tools/vibe in the harness. */
export const vibePlugin: HarnessPlugin = {
  factory: vibeTools,
  resources: () => ({}),
  demo: [],
};
