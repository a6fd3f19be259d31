import { spawnSync } from 'node:child_process';

/** Debian's interpreter: the one the apt packages install their modules for. */
export const SYSTEM_PYTHON = '/usr/bin/python3';

/** The modules of `modules` that `python` cannot import (all of them when it cannot run). */
export function missingPythonModules(modules: readonly string[], python = SYSTEM_PYTHON): string[] {
  return modules.filter((module) => {
    const probe = spawnSync(python, ['-c', `import ${module}`], { stdio: 'ignore', timeout: 15_000 });
    return probe.status !== 0;
  });
}
