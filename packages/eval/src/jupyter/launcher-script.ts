import { readFileSync } from 'node:fs';

let script: string | undefined;

/**
 * The Python program that runs the local Jupyter server (`launcher.py`, beside this file; what it does and why is
 * said there): `python3 -c <text> <state dir> <server args...>`. Read once, when the first server starts.
 */
export function launcherScript(): string {
  script ??= readFileSync(new URL('./launcher.py', import.meta.url), 'utf8');
  return script;
}
