import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { ProblemReader } from '../server-config.js';

/**
 * Why Biome's server lints nothing: a configuration it cannot load is logged as an error (`Found an unknown key
 * `rulez`.`) when it starts, and it then publishes no diagnostics at all, so waiting for them would only run out. The
 * error stays in this process's log: once the configuration is fixed, `reload` starts a server with a clean one.
 */
export const biomeProblem: ProblemReader = (report) => {
  const error = [...report.log].reverse().find((line) => line.type === 1);
  if (!error) return undefined;
  const config = ['biome.json', 'biome.jsonc'].find((name) => existsSync(join(report.root, name))) ?? 'its configuration';
  const message = error.message.trim().split('\n')[0]?.slice(0, 300) ?? '';
  return `could not load ${config}: ${message} (after fixing it, call lsp with action "reload")`;
};
