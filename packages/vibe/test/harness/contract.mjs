// The factory contract's stand-in harness module (see @agent-tools/test-utils): the contract's resources, built
// in a child process in `dir`: a worker list whose workers run fixtures/hang.sh from there.
import { copyFileSync } from 'node:fs';
import { join } from 'node:path';
import { processRunner, vibeTools, WorkerList } from '@agent-tools/vibe';

export const factory = vibeTools;

/** @param {string} dir */
export function resources(dir) {
  const script = join(dir, 'hang.sh');
  copyFileSync(new URL('../fixtures/hang.sh', import.meta.url), script);
  return { workerList: new WorkerList({ runner: processRunner({ command: ['sh', script] }) }) };
}
