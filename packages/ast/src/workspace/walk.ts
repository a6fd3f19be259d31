import type { Dirent } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import { readRegularFile } from '@agent-tools/core/internal';
import ignore, { type Ignore } from 'ignore';

/** What a walk found, and what it left out on purpose. */
export interface WalkResult {
  /** Absolute paths of the files to search, sorted. */
  readonly files: string[];
  /** How many entries .gitignore rules excluded. */
  readonly ignored: number;
  /**
   * Entries with the language's extension that are not regular files, never opened: symbolic links (which could lead
   * outside the working directory) and special files (a FIFO would block the reader), each with what it is.
   */
  readonly skipped: readonly { readonly path: string; readonly what: string }[];
}

/** Directories never searched: dependencies and version-control data. */
const ALWAYS_SKIPPED = new Set(['node_modules', '.git', '.hg', '.svn']);

interface Rules {
  /** The directory the .gitignore belongs to. */
  readonly base: string;
  readonly ig: Ignore;
}

/**
 * Lists the files under `dir` whose names pass `accept`, honouring every `.gitignore` from the working
 * directory `root` down (a deeper file's negation wins over a parent's rule), and skipping `node_modules`,
 * `.git`, hidden entries (as ripgrep and ast-grep do) and symbolic links (which could lead outside the
 * working directory).
 */
export async function walkFiles(
  root: string,
  dir: string,
  accept: (name: string) => boolean,
  signal?: AbortSignal,
): Promise<WalkResult> {
  const files: string[] = [];
  const skipped: { path: string; what: string }[] = [];
  let ignored = 0;
  let inherited: Rules[] = [];
  // Rules of the directories between the working directory and the searched one apply too.
  const rel = relative(root, dir);
  let current = root;
  const parents = rel ? rel.split(sep) : [];
  for (const part of ['', ...parents.slice(0, -1)]) {
    current = part ? join(current, part) : current;
    const rules = await readRules(current);
    if (rules) inherited.push(rules);
  }
  // A directory named explicitly is searched even when it is ignored; only its own rules apply then.
  if (parents.length > 0 && isIgnored(inherited, dir, true)) inherited = [];

  const visit = async (path: string, stack: readonly Rules[]): Promise<void> => {
    if (signal?.aborted) return;
    let dirents: Dirent[];
    try {
      dirents = await readdir(path, { withFileTypes: true });
    } catch {
      return; // unreadable directory: nothing to search in it
    }
    // Read a .gitignore only where there is one: most directories have none.
    const own = dirents.some((d) => d.name === '.gitignore') ? await readRules(path) : undefined;
    const rules = own ? [...stack, own] : stack;
    const entries: { name: string; directory: boolean }[] = [];
    for (const entry of dirents) {
      if (entry.name.startsWith('.') || ALWAYS_SKIPPED.has(entry.name)) continue;
      if (entry.isDirectory()) entries.push({ name: entry.name, directory: true });
      else if (entry.isFile()) {
        if (accept(entry.name)) entries.push({ name: entry.name, directory: false });
      } else if (accept(entry.name)) {
        const full = join(path, entry.name);
        if (rules.length === 0 || !isIgnored(rules, full, false)) skipped.push({ path: full, what: direntKind(entry) });
      }
    }
    const subdirectories: Promise<void>[] = [];
    for (const entry of entries) {
      const full = join(path, entry.name);
      if (rules.length > 0 && isIgnored(rules, full, entry.directory)) {
        ignored++;
        continue;
      }
      // Sibling directories are read concurrently: a walk is a chain of small reads, bound by their latency.
      if (entry.directory) subdirectories.push(visit(full, rules));
      else files.push(full);
    }
    await Promise.all(subdirectories);
  };
  await visit(dir, inherited);
  skipped.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  return { files: files.sort(), ignored, skipped };
}

function direntKind(entry: Dirent): string {
  if (entry.isSymbolicLink()) return 'a symbolic link';
  if (entry.isFIFO()) return 'a FIFO';
  if (entry.isSocket()) return 'a socket';
  return 'a device';
}

async function readRules(dir: string): Promise<Rules | undefined> {
  let text: string;
  try {
    // Never a plain read: a .gitignore that is a FIFO would hold a thread-pool thread, and the search, for good.
    text = (await readRegularFile(join(dir, '.gitignore'))).bytes.toString('utf8');
  } catch {
    // A missing .gitignore, an unreadable one or a special file (file-system errors, not_regular_file): no rules.
    return undefined;
  }
  return { base: dir, ig: ignore().add(text) };
}

/** The deepest .gitignore with an opinion about the path decides, as git does. */
function isIgnored(stack: readonly Rules[], path: string, directory: boolean): boolean {
  for (let i = stack.length - 1; i >= 0; i--) {
    const rules = stack[i] as Rules;
    const rel = relative(rules.base, path).split(sep).join('/');
    if (!rel || rel.startsWith('..')) continue;
    const result = rules.ig.test(directory ? `${rel}/` : rel);
    if (result.ignored) return true;
    if (result.unignored) return false;
  }
  return false;
}
