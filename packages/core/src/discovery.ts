import { accessSync, constants, existsSync, statSync } from 'node:fs';
import { delimiter, dirname, isAbsolute, join } from 'node:path';
import { displayPath, isWithin } from './paths.js';

/**
 * Where a project's root is and where its tools are: what a language server and a debug adapter both decide
 * before they start, in one place so both answer the same way.
 */

/** Folders never searched for roots or source files: dependencies, build output, tool state. */
export const IGNORED_DIRS: ReadonlySet<string> = new Set([
  'node_modules',
  '.git',
  '.hg',
  '.svn',
  'dist',
  'build',
  'out',
  'target',
  '.venv',
  'venv',
  '__pycache__',
  '.next',
  '.turbo',
  'coverage',
  'vendor',
  '.dart_tool',
]);

/** Folders of a project that hold its own tools, searched from the root up to the working directory. */
export const PROJECT_BIN_DIRS = ['node_modules/.bin', '.venv/bin', 'venv/bin'] as const;

/** `dir` and its parents up to and including `top`; just `dir` when it is not inside `top`. */
export function ancestorsUpTo(dir: string, top: string): string[] {
  const dirs = [dir];
  let current = dir;
  while (current !== top && isWithin(top, current)) {
    const parent = dirname(current);
    if (parent === current) break;
    current = parent;
    dirs.push(current);
  }
  return dirs;
}

/** A project root: the folder, and the marker that made it one. */
export interface FoundRoot {
  readonly dir: string;
  readonly marker: string;
}

/**
 * The nearest folder from `from` up to `cwd` (both included) that holds one of `markers` (the first marker
 * listed wins within a folder). The walk never leaves the working directory.
 */
export function findRoot(markers: readonly string[], from: string, cwd: string): FoundRoot | undefined {
  for (const dir of ancestorsUpTo(from, cwd)) {
    const marker = markers.find((m) => existsSync(join(dir, m)));
    if (marker !== undefined) return { dir, marker };
  }
  return undefined;
}

/** Whether `path` is an executable regular file (symlinks followed). */
export function isExecutable(path: string): boolean {
  try {
    if (!statSync(path).isFile()) return false;
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    // stat and access raise only file-system errors: not an executable we can run.
    return false;
  }
}

/**
 * The folders of the search path, in order, absolute ones only (a relative entry such as `.` would run whatever
 * the working directory holds) and without duplicates.
 */
export function searchPath(env: NodeJS.ProcessEnv = process.env): string[] {
  return [...new Set((env['PATH'] ?? '').split(delimiter).filter((dir) => dir && isAbsolute(dir)))];
}

/** The first executable named `name` in `dirs`. */
export function findExecutable(name: string, dirs: readonly string[]): string | undefined {
  for (const dir of dirs) {
    const candidate = join(dir, name);
    if (isExecutable(candidate)) return candidate;
  }
  return undefined;
}

/** The project's own tool folders (`bins` below each folder) from `root` up to `cwd`, nearest first. */
export function projectBinDirs(root: string, cwd: string, bins: readonly string[] = PROJECT_BIN_DIRS): string[] {
  return ancestorsUpTo(root, cwd).flatMap((dir) => bins.map((bin) => join(dir, bin)));
}

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

/** Where to look for a binary. */
export interface BinarySearch {
  /** Binary names in order of preference, or absolute paths. */
  readonly names: readonly string[];
  /** The project root; project-local folders are searched from here up to `cwd`. */
  readonly root: string;
  readonly cwd: string;
  /** The search path (default `process.env.PATH`). */
  readonly path?: string | undefined;
  /** A copy that comes with a package, tried last. */
  readonly bundled?: (() => ResolvedCommand | undefined) | undefined;
  /** Where `bundled` looks, for the list of places searched ("packages installed with @agent-tools/lsp"). */
  readonly bundledFrom?: string | undefined;
}

/** The outcome of a binary search: where it was found, or every place that was searched. */
export type BinaryLookup =
  | { readonly found: ResolvedCommand; readonly looked: readonly string[] }
  | { readonly found?: undefined; readonly looked: readonly string[] };

/**
 * Finds a binary the way a developer expects: an absolute path as given, else the project's own copy first
 * ({@link PROJECT_BIN_DIRS} from the root up to the working directory), then the search path, then a bundled
 * copy. Each name is tried in every project folder before the search path, and in the whole search path before
 * the next name.
 */
export function findBinary(search: BinarySearch): BinaryLookup {
  const looked: string[] = [];
  for (const name of search.names.filter((n) => isAbsolute(n))) {
    looked.push(name);
    if (isExecutable(name)) return { found: { command: name, prefixArgs: [], source: 'absolute', display: name }, looked };
  }
  const names = search.names.filter((name) => !isAbsolute(name));
  if (names.length === 0) return { looked };

  for (const dir of projectBinDirs(search.root, search.cwd)) {
    for (const name of names) {
      const candidate = join(dir, name);
      if (isExecutable(candidate)) {
        return { found: { command: candidate, prefixArgs: [], source: 'project', display: displayPath(candidate, search.cwd) }, looked };
      }
    }
  }
  looked.push(`${PROJECT_BIN_DIRS.join(', ')} (from ${displayPath(search.root, search.cwd)} up to the working directory)`);
  const pathDirs = searchPath({ PATH: search.path ?? process.env['PATH'] });
  for (const name of names) {
    const found = findExecutable(name, pathDirs);
    if (found) return { found: { command: found, prefixArgs: [], source: 'path', display: found }, looked };
  }
  looked.push('$PATH');
  if (search.bundled) {
    const bundled = search.bundled();
    if (bundled) return { found: bundled, looked };
    looked.push(search.bundledFrom ?? 'bundled packages');
  }
  return { looked };
}
