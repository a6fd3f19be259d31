import { lstatSync, readlinkSync, realpathSync, statSync } from 'node:fs';
import { dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { CoreError } from './errors.js';
import { notRegularFile, specialFileKind } from './regular-file.js';

/** A path argument resolved inside the working directory. */
export interface ResolvedPath {
  /** Absolute path, lexically inside the working directory. */
  readonly absolute: string;
  /** Workspace-relative path with forward slashes; `.` for the working directory itself. */
  readonly relative: string;
  readonly exists: boolean;
}

/** What {@link resolveInside} requires of the path. */
export interface ResolveOptions {
  /** Refuse a path that does not exist. */
  readonly mustExist?: boolean;
  /** Refuse an existing path of the other kind; `file` also refuses a FIFO, a socket or a device, by name. */
  readonly kind?: 'file' | 'directory';
}

/**
 * Resolves a tool's path argument inside the working directory. Refuses `..` escapes, absolute paths elsewhere,
 * and symbolic links (anywhere along the path) that lead out, with a message that tells the model what to pass.
 * Relative paths are taken from `cwd`; absolute paths are accepted when they are inside it.
 */
export function resolveInside(cwd: string, input: string, options: ResolveOptions = {}): ResolvedPath {
  if (typeof input !== 'string' || input.trim() === '') {
    throw new CoreError('invalid_path', 'The path is empty; pass a path relative to the working directory.');
  }
  if (input.includes('\0')) {
    throw new CoreError('invalid_path', `The path ${JSON.stringify(input)} contains a NUL character.`);
  }
  const root = resolve(cwd);
  const realRoot = realpathOrSelf(root);
  const absolute = resolve(root, input);
  if (!isWithin(root, absolute) && !isWithin(realRoot, absolute)) {
    throw new CoreError(
      'outside_workspace',
      `The path "${input}" is outside the working directory ${root}. Tools only read and write inside it; pass a path relative to it.`,
    );
  }

  const { real, exists, blockedBy } = realpathOfNearest(absolute);
  if (!isWithin(realRoot, real)) {
    throw new CoreError(
      'outside_workspace',
      `The path "${input}" leads outside the working directory through a symbolic link (to ${real}). Tools only read and write inside ${root}.`,
    );
  }

  const rel = displayPath(absolute, root);
  if (blockedBy) {
    const file = displayPath(blockedBy, root);
    throw new CoreError('invalid_path', `"${file}" is a file, so "${rel}" cannot exist below it; check the path.`);
  }
  if (options.mustExist && !exists) {
    throw new CoreError('invalid_path', `There is no file or directory "${rel}" in the working directory ${root}.`);
  }
  if (exists && options.kind) {
    const stats = statSync(absolute);
    const isDirectory = stats.isDirectory();
    const special = specialFileKind(stats);
    if (options.kind === 'file' && special) throw notRegularFile(rel, special);
    if (options.kind === 'file' && isDirectory) {
      throw new CoreError('invalid_path', `"${rel}" is a directory; pass a file.`);
    }
    if (options.kind === 'directory' && !isDirectory) {
      throw new CoreError('invalid_path', `"${rel}" is a file; pass a directory.`);
    }
  }
  return { absolute, relative: rel, exists };
}

/** Whether `child` is `parent` or lies below it, lexically. */
export function isWithin(parent: string, child: string): boolean {
  const rel = relative(parent, child);
  return rel === '' || (!rel.startsWith(`..${sep}`) && rel !== '..' && !isAbsolute(rel));
}

/** How {@link displayPath} words a path outside the working directory. */
export interface DisplayPathOptions {
  /** The home folder: a path below it (outside the working directory) reads `~/…`. */
  readonly home?: string | undefined;
}

/**
 * A path as a model reads it: relative to the working directory with forward slashes (`.` for the directory
 * itself), absolute outside it (`~/…` below `home` when given). Without a working directory, the path as given.
 * The one helper every package uses, so a file reads the same in every tool's answer.
 */
export function displayPath(file: string, cwd: string | undefined, options: DisplayPathOptions = {}): string {
  if (cwd && isWithin(cwd, file)) return toPosix(relative(cwd, file)) || '.';
  const home = options.home?.replace(/[/\\]+$/, '');
  if (home && isWithin(home, file) && file !== home) return `~/${toPosix(relative(home, file))}`;
  return file;
}

function toPosix(path: string): string {
  return sep === '/' ? path : path.split(sep).join('/');
}

function realpathOrSelf(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    // realpath raises only file-system errors: the path is kept as given.
    return path;
  }
}

/**
 * The real path of the deepest existing ancestor, with the missing rest appended: a file about to be created
 * under a symlinked directory is judged by where the directory really is. A dangling symlink is followed to
 * where it points, because writing through it would create its target there.
 */
function realpathOfNearest(absolute: string, depth = 0): { real: string; exists: boolean; blockedBy?: string } {
  const missing: string[] = [];
  let current = absolute;
  for (;;) {
    try {
      const real = realpathSync(current);
      const blockedBy = missing.length > 0 && !statSync(real).isDirectory() ? current : undefined;
      const full = missing.length ? join(real, ...missing.reverse()) : real;
      return { real: full, exists: missing.length === 0, ...(blockedBy ? { blockedBy } : {}) };
    } catch {
      // A file-system error (a part missing, a dangling or looping link): handled below from lstat.
      const link = lstatOrUndefined(current);
      if (link?.isSymbolicLink() && depth < 40) {
        const target = resolve(dirname(current), readlinkSync(current));
        const followed = realpathOfNearest(target, depth + 1);
        return { real: missing.length ? join(followed.real, ...missing.reverse()) : followed.real, exists: false };
      }
      const parent = dirname(current);
      if (parent === current) return { real: absolute, exists: false };
      missing.push(current.slice(parent.length).replace(/^[/\\]/, ''));
      current = parent;
    }
  }
}

/** lstat that answers `undefined` for any path that cannot be a file (missing, or below a file). */
function lstatOrUndefined(path: string): ReturnType<typeof lstatSync> | undefined {
  try {
    return lstatSync(path, { throwIfNoEntry: false });
  } catch {
    // lstat raises only file-system errors (EACCES, ENOTDIR): nothing to describe.
    return undefined;
  }
}
