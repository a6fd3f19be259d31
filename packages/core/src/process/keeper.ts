import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { hasProcFs } from './proc-table.js';

/** Where the keeper's interpreter is looked for; PATH is not searched (a pyenv shim there costs 100 ms a start). */
const CANDIDATES = ['/usr/bin/python3', '/usr/local/bin/python3', '/bin/python3'];

/** The probe proves, once per harness process, that this interpreter can run the keeper and become a subreaper. */
const PROBE = 'import ctypes, json, os, select, signal; print(ctypes.CDLL(None, use_errno=True).prctl(36, 1, 0, 0, 0))';

/** Why the keeper is or is not used, for the README's guarantee and for tests. */
export interface KeeperStatus {
  /** The interpreter that runs keepers, when they are used. */
  readonly python: string | undefined;
  /** One sentence: what holds on this machine. */
  readonly reason: string;
}

let cached: KeeperStatus | undefined;

/**
 * Whether process trees are started under a keeper (Linux, a Python 3 that can call prctl), decided once per
 * process. `AGENT_TOOLS_KEEPER_PYTHON` names another interpreter, or `off` to use plain process groups.
 */
export function keeperStatus(): KeeperStatus {
  cached ??= probe();
  return cached;
}

function probe(): KeeperStatus {
  if (process.platform !== 'linux' || !hasProcFs) {
    return { python: undefined, reason: `${process.platform} has no child subreaper: process groups and tracked pids only` };
  }
  const override = process.env['AGENT_TOOLS_KEEPER_PYTHON'];
  if (override === 'off') return { python: undefined, reason: 'AGENT_TOOLS_KEEPER_PYTHON=off: process groups and tracked pids only' };
  const candidates = override ? [override] : CANDIDATES.filter((path) => existsSync(path));
  for (const python of candidates) {
    const result = spawnSync(python, ['-I', '-S', '-c', PROBE], { encoding: 'utf8', timeout: 10_000 });
    if (result.status === 0 && result.stdout.trim() === '0') {
      return { python, reason: `process trees are kept by ${python} as a child subreaper` };
    }
  }
  return {
    python: undefined,
    reason: `no Python 3 that can call prctl was found (${candidates.join(', ') || CANDIDATES.join(', ')}): process groups and tracked pids only`,
  };
}
