import { isAbsolute } from 'node:path';
import { displayPath } from '../util/paths.js';

/**
 * A server's root as a model reads it: workspace-relative, the working directory named as such (a bare `.` at the end
 * of a sentence reads `with root ..`), a root outside the working directory said to be so.
 */
export function rootLabel(root: string, cwd: string): string {
  const shown = displayPath(root, cwd);
  if (shown === '.') return '. (the working directory)';
  return isAbsolute(shown) ? `${shown} (outside the working directory)` : shown;
}
