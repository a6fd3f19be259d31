import { readFileSync } from 'node:fs';
import { BRIDGE_MARKER } from '../bridge.js';

/**
 * The filename eval's Python helpers are compiled under, so tracebacks can tell their frames from the user's.
 */
export const PRELUDE_FILENAME = '<agent-tools>';

let prelude: string | undefined;

/**
 * Python run silently in every new Python kernel (`prelude.py`, beside this file): `tool()` and the helpers of the
 * rewritten IPython idioms. As sent to the kernel: compiled under {@link PRELUDE_FILENAME}, then called with the
 * bridge marker. Read once, when the first Python kernel starts.
 */
export function pythonPrelude(): string {
  if (prelude === undefined) {
    const source = `${readFileSync(new URL('./prelude.py', import.meta.url), 'utf8')}
__agent_tools_setup(${JSON.stringify(BRIDGE_MARKER)})
del __agent_tools_setup
`;
    prelude = `exec(compile(${JSON.stringify(source)}, ${JSON.stringify(PRELUDE_FILENAME)}, "exec"))`;
  }
  return prelude;
}
