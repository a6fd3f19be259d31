import { existsSync, readdirSync } from 'node:fs';
import { extname, join } from 'node:path';
import { IGNORED_DIRS } from '@agent-tools/core/internal';

/** Bounds of a directory walk. */
export interface WalkLimits {
  readonly maxDepth?: number;
  readonly maxDirs?: number;
}

/**
 * The project roots of a working directory for one server: the working directory itself when it holds a
 * marker, otherwise the top-most folders below it that do (a monorepo's packages), breadth first and bounded.
 */
export function discoverRoots(cwd: string, markers: readonly string[], limits: WalkLimits = {}): string[] {
  const maxDepth = limits.maxDepth ?? 3;
  let budget = limits.maxDirs ?? 2000;
  const roots: string[] = [];
  let level = [cwd];
  for (let depth = 0; depth <= maxDepth && level.length > 0 && budget > 0; depth++) {
    const next: string[] = [];
    for (const dir of level) {
      if (budget-- <= 0) break;
      if (markers.some((marker) => existsSync(join(dir, marker)))) {
        roots.push(dir);
        continue; // Nested roots are part of this one.
      }
      next.push(...subdirectories(dir));
    }
    level = next;
  }
  return roots;
}

/**
 * Source files below `root` with one of the extensions, skipping {@link IGNORED_DIRS} and hidden folders;
 * at most `max` are returned, with the count of all that were seen (up to the walk's bound).
 */
export function listSourceFiles(
  root: string,
  extensions: readonly string[],
  max: number,
  limits: WalkLimits = {},
): { files: string[]; seen: number } {
  const wanted = new Set(extensions);
  const files: string[] = [];
  let seen = 0;
  let budget = limits.maxDirs ?? 5000;
  const maxDepth = limits.maxDepth ?? 12;
  const stack: Array<[string, number]> = [[root, 0]];
  while (stack.length > 0 && budget-- > 0) {
    const [dir, depth] = stack.pop() as [string, number];
    let entries: import('node:fs').Dirent[];
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      // readdir raises only file-system errors: an unreadable directory is skipped.
      continue;
    }
    entries.sort((a, b) => a.name.localeCompare(b.name));
    const subdirs: string[] = [];
    for (const entry of entries) {
      if (entry.isDirectory()) {
        if (!IGNORED_DIRS.has(entry.name) && !entry.name.startsWith('.') && depth < maxDepth) subdirs.push(join(dir, entry.name));
      } else if (entry.isFile() && wanted.has(extname(entry.name).toLowerCase())) {
        seen++;
        if (files.length < max) files.push(join(dir, entry.name));
      }
    }
    for (const sub of subdirs.reverse()) stack.push([sub, depth + 1]);
  }
  return { files, seen };
}

function subdirectories(dir: string): string[] {
  try {
    return readdirSync(dir, { withFileTypes: true })
      .filter((e) => e.isDirectory() && !IGNORED_DIRS.has(e.name) && !e.name.startsWith('.'))
      .map((e) => join(dir, e.name))
      .sort();
  } catch {
    // readdir raises only file-system errors: an unreadable directory has nothing to search.
    return [];
  }
}
