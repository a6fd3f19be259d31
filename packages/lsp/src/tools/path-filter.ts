import { resolveInside } from '@agent-tools/core';
import { isInside } from '../util/paths.js';

/** A list's `path` argument: keeps results in one file or folder of the working directory. */
export interface PathFilter {
  /** The file or folder as the model reads it (workspace-relative). */
  readonly label: string;
  /** Whether an absolute path is that file or lies in that folder. */
  matches(path: string): boolean;
}

/** The filter of a `path` argument; undefined when none was given. Throws (core's error) for a path outside. */
export function pathFilter(cwd: string, path: string | undefined): PathFilter | undefined {
  if (path === undefined || path.trim() === '' || path.trim() === '.') return undefined;
  const resolved = resolveInside(cwd, path.trim(), { mustExist: true });
  return { label: resolved.relative, matches: (candidate) => isInside(resolved.absolute, candidate) };
}
