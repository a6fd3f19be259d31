import { statSync } from 'node:fs';
import { resolve } from 'node:path';
import { builtinSurfaces, type Surface } from '@agent-tools/core';
import { UsageError } from './args.js';

/** The working directory named on the command line (default: the current one), which must exist. */
export function workingDirectory(dir: string | undefined): string {
  const cwd = resolve(dir ?? process.cwd());
  if (!statSync(cwd, { throwIfNoEntry: false })?.isDirectory()) {
    throw new UsageError(`--cwd ${dir}: no such directory.`);
  }
  return cwd;
}

/** The built-in surface named on the command line (default: `default`). */
export function surfaceNamed(name: string | undefined): Surface {
  if (name === undefined) return builtinSurfaces['default'] as Surface;
  const surface = builtinSurfaces[name];
  if (!surface) throw new UsageError(`Unknown surface "${name}"; use ${Object.keys(builtinSurfaces).join(', ')}.`);
  return surface;
}
