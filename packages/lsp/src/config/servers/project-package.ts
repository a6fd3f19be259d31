import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { displayPath } from '../../util/paths.js';

/** The folder of a package installed for a project, found as Node finds it (`node_modules/<name>` in the root or above). */
export function findProjectPackage(name: string, root: string): string | undefined {
  for (let dir = root; ; dir = dirname(dir)) {
    const candidate = join(dir, 'node_modules', name);
    if (existsSync(join(candidate, 'package.json'))) return candidate;
    if (dirname(dir) === dir) return undefined;
  }
}

/** Whether a project has its own copy of a package: undefined when it does, else where it was looked for and how to get it. */
export function projectPackage(name: string, root: string, cwd: string): string | undefined {
  if (findProjectPackage(name, root)) return undefined;
  return `the project's own ${name} package was not found (node_modules/${name} in ${displayPath(root, cwd)} or a folder above it); install it in the project (npm i -D ${name})`;
}
