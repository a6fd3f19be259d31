import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { displayPath } from '@agent-tools/core';
import { IGNORED_DIRS } from '@agent-tools/core/internal';

/**
 * Folders below `cwd` (at most `depth` levels, skipping dependency and build folders) that hold one of
 * `markers`, as workspace-relative paths: `adapters` tells the model where a launch would find a root.
 */
export function markersBelow(markers: readonly string[], cwd: string, depth = 2, limit = 5): string[] {
  const found: string[] = [];
  const walk = (dir: string, level: number): void => {
    if (level > depth || found.length >= limit) return;
    let entries: import('node:fs').Dirent[];
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      // readdir raises only file-system errors: nothing found here.
      return;
    }
    for (const entry of entries) {
      if (!entry.isDirectory() || entry.name.startsWith('.') || IGNORED_DIRS.has(entry.name)) continue;
      const sub = join(dir, entry.name);
      for (const marker of markers) {
        if (existsSync(join(sub, marker)) && found.length < limit) found.push(`${displayPath(sub, cwd)}/${marker}`);
      }
      walk(sub, level + 1);
    }
  };
  walk(cwd, 1);
  return found;
}
