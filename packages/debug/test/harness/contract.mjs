// The factory contract's stand-in harness module (see @agent-tools/test-utils): the contract's resources, built
// in a child process in `dir`: a Python project whose program runs long enough to be caught alive.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createDebugSupervisor, debugTools } from '@agent-tools/debug';

export const factory = debugTools;

/** @param {string} dir */
export function resources(dir) {
  writeFileSync(join(dir, 'pyproject.toml'), '');
  writeFileSync(join(dir, 'app.py'), 'import time\ntime.sleep(30)\n');
  return { cwd: dir, conversationId: 'contract', debugSupervisor: createDebugSupervisor({ waitMs: 1000 }) };
}
