import { spawnSync } from 'node:child_process';

/**
 * The command that installs what the demo needs from Debian (tools/agent-tools/demo-apt-packages.txt); the
 * README's first command runs it. A demo step that lacks something names it, so one line says how to get it.
 */
export const DEMO_SETUP_COMMAND = 'sh tools/scripts/install-system.sh --demo';

/** Debian's interpreter: the one the apt packages install their modules for. */
export const SYSTEM_PYTHON = '/usr/bin/python3';

/** The modules of `modules` that `python` cannot import (all of them when it cannot run). */
export function missingPythonModules(modules: readonly string[], python = SYSTEM_PYTHON): string[] {
  return modules.filter((module) => {
    const probe = spawnSync(python, ['-c', `import ${module}`], { stdio: 'ignore', timeout: 15_000 });
    return probe.status !== 0;
  });
}
