// The factory contract's stand-in harness module (see @agent-tools/test-utils): the contract's resources, built
// in a child process in `dir`: a kernel factory on the run's own Jupyter server.
import { createKernelFactory, evalTools } from '@agent-tools/eval';

export const factory = evalTools;

/** @param {string} dir */
export function resources(dir) {
  return { cwd: dir, kernelFactory: createKernelFactory({ cwd: dir }) };
}
