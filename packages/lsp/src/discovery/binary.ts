import { accessSync, constants, statSync } from 'node:fs';
import { delimiter, dirname, isAbsolute, join, relative } from 'node:path';
import { displayPath } from '../util/paths.js';

/** Where a binary was found. */
export type BinarySource = 'project' | 'path' | 'bundled' | 'absolute';

/** A resolved way to start a program. */
export interface ResolvedCommand {
  /** What to spawn (an absolute path). */
  readonly command: string;
  /** Arguments that precede the configuration's own (the script when a Node program runs under this Node). */
  readonly prefixArgs: readonly string[];
  readonly source: BinarySource;
  /** The binary as a model reads it: `node_modules/.bin/tsc`, `/usr/bin/gopls`. */
  readonly display: string;
}

/** Folders of a project that hold its own tools, searched from the root up to the working directory. */
export const PROJECT_BIN_DIRS = ['node_modules/.bin', '.venv/bin', 'venv/bin'] as const;

/** Where to look for a binary. */
export interface BinarySearch {
  /** Binary names in order of preference, or absolute paths. */
  readonly names: readonly string[];
  /** The project root; project-local folders are searched from here up to `cwd`. */
  readonly root: string;
  readonly cwd: string;
  /** The search path (default `process.env.PATH`). */
  readonly path?: string;
  readonly bundled?: () => ResolvedCommand | undefined;
}

/** The outcome of a binary search: where it was found, or every place that was searched. */
export type BinaryLookup =
  | { readonly found: ResolvedCommand; readonly looked: readonly string[] }
  | { readonly found?: undefined; readonly looked: readonly string[] };

/**
 * Finds a binary the way a developer expects: the project's own copy first (`node_modules/.bin`, `.venv/bin`,
 * `venv/bin` from the root up to the working directory), then the search path, then a package installed with
 * @agent-tools/lsp. Each name is tried in every place before the next name.
 */
export function findBinary(search: BinarySearch): BinaryLookup {
  const looked: string[] = [];
  const absolute = search.names.filter((name) => isAbsolute(name));
  for (const name of absolute) {
    looked.push(name);
    if (isExecutable(name)) return { found: { command: name, prefixArgs: [], source: 'absolute', display: name }, looked };
  }
  const names = search.names.filter((name) => !isAbsolute(name));
  if (names.length === 0) return { looked };

  const projectDirs: string[] = [];
  for (const dir of ancestorsUpTo(search.root, search.cwd)) {
    for (const bin of PROJECT_BIN_DIRS) projectDirs.push(join(dir, bin));
  }
  const pathDirs = (search.path ?? process.env['PATH'] ?? '').split(delimiter).filter((d) => d && isAbsolute(d));

  for (const dir of projectDirs) {
    for (const name of names) {
      const candidate = join(dir, name);
      if (isExecutable(candidate)) {
        return { found: { command: candidate, prefixArgs: [], source: 'project', display: displayPath(candidate, search.cwd) }, looked };
      }
    }
  }
  looked.push(`${PROJECT_BIN_DIRS.join(', ')} (from ${displayPath(search.root, search.cwd)} up to the working directory)`);
  for (const name of names) {
    for (const dir of pathDirs) {
      const candidate = join(dir, name);
      if (isExecutable(candidate)) return { found: { command: candidate, prefixArgs: [], source: 'path', display: candidate }, looked };
    }
  }
  looked.push('$PATH');
  if (search.bundled) {
    const bundled = search.bundled();
    if (bundled) return { found: bundled, looked };
    looked.push('packages installed with @agent-tools/lsp');
  }
  return { looked };
}

/** `dir` and its parents up to and including `top`; just `dir` when it is not inside `top`. */
export function ancestorsUpTo(dir: string, top: string): string[] {
  const dirs: string[] = [];
  let current = dir;
  for (;;) {
    dirs.push(current);
    const rel = relative(top, current);
    if (rel === '' || rel.startsWith('..') || isAbsolute(rel)) break;
    const parent = dirname(current);
    if (parent === current) break;
    current = parent;
  }
  return dirs;
}

function isExecutable(path: string): boolean {
  try {
    if (!statSync(path).isFile()) return false;
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}
