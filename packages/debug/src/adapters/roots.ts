import { existsSync, readdirSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { isWithin } from '@agent-tools/core';

/** A project root found for an adapter. */
export interface FoundRoot {
  readonly dir: string;
  readonly marker: string;
}

/**
 * The nearest folder from `from` up to `cwd` (both included) that holds one of `markers`. The walk never
 * leaves the working directory.
 */
export function findRoot(markers: readonly string[], from: string, cwd: string): FoundRoot | undefined {
  let dir = from;
  for (;;) {
    for (const marker of markers) {
      if (existsSync(join(dir, marker))) return { dir, marker };
    }
    if (dir === cwd || !isWithin(cwd, dir)) return undefined;
    const parent = dirname(dir);
    if (parent === dir) return undefined;
    dir = parent;
  }
}

const SKIP = new Set(['node_modules', '.git', '.venv', 'venv', 'target', 'build', 'dist', '__pycache__']);

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
      return;
    }
    for (const entry of entries) {
      if (!entry.isDirectory() || entry.name.startsWith('.') || SKIP.has(entry.name)) continue;
      const sub = join(dir, entry.name);
      for (const marker of markers) {
        if (existsSync(join(sub, marker)) && found.length < limit) found.push(`${relative(cwd, sub)}/${marker}`);
      }
      walk(sub, level + 1);
    }
  };
  walk(cwd, 1);
  return found;
}
