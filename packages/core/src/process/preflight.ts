import { accessSync, constants, statSync } from 'node:fs';
import { delimiter, isAbsolute, join, resolve } from 'node:path';

/**
 * Why a command cannot be executed, found the way `execvp` would find it, or undefined when it can. Checked
 * before a keeper is started, so a missing binary fails within one turn of the event loop, as a plain `spawn`
 * does, and costs no process. (The keeper still reports an exec that fails later.)
 */
export function preflight(command: string, cwd: string, env: NodeJS.ProcessEnv): string | undefined {
  try {
    if (!statSync(cwd).isDirectory()) return 'ENOTDIR';
  } catch {
    // stat raises only file-system errors: each means the directory is not usable.
    return 'ENOENT';
  }
  if (command.includes('/')) return executable(isAbsolute(command) ? command : resolve(cwd, command));
  let denied = false;
  for (const dir of (env['PATH'] ?? '/usr/local/bin:/usr/bin:/bin').split(delimiter)) {
    const why = executable(join(dir ? resolve(cwd, dir) : cwd, command));
    if (why === undefined) return undefined;
    if (why === 'EACCES') denied = true;
  }
  return denied ? 'EACCES' : 'ENOENT';
}

function executable(path: string): string | undefined {
  try {
    if (statSync(path).isDirectory()) return 'EACCES';
    accessSync(path, constants.X_OK);
    return undefined;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EACCES' ? 'EACCES' : 'ENOENT';
  }
}
