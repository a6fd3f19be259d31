import { createHash } from 'node:crypto';
import { existsSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readRegularFileSync, writeFileAtomic } from '@agent-tools/core';
import { listSourceFiles } from '../../discovery/root.js';
import type { LaunchPreparation } from '../server-config.js';

/** Translation units clangd compiles (headers are indexed through the files that include them). */
const SOURCES = ['.c', '.cc', '.cpp', '.cxx', '.c++', '.m', '.mm'];
const MAX_FILES = 5000;
const PREFIX = 'agent-tools-clangd-';
/** The file in a database folder naming the root it was generated for. */
const ROOT_FILE = 'agent-tools-root.txt';
/** A folder whose root is gone is removed once it is this old (a younger one may be being set up). */
const GONE_GRACE_MS = 60_000;
/** A folder not used for this long is removed even when its root still exists (its index is stale anyway). */
const UNUSED_MS = 30 * 24 * 3600_000;

/** Whether a root has a compilation database of its own, where clangd looks for one. */
export function hasCompilationDatabase(root: string): boolean {
  return ['compile_commands.json', 'build/compile_commands.json'].some((file) => existsSync(join(root, file)));
}

/**
 * For a C/C++ root without a compilation database, one that lists every source file with the flags of
 * `compile_flags.txt` (or none), passed with `--compile-commands-dir`. Without it clangd indexes only the files it
 * has opened, and references, call hierarchies and renames silently miss the rest; with it, clangd indexes the
 * whole project in the background and says so with work-done progress.
 *
 * The database lives in one folder per root and user under the system's temporary directory, reused and
 * overwritten by every run (clangd keeps its background index beside it, so a later run starts warm), never in the
 * project. Nothing has to be removed when a run ends, so a harness killed outright leaves nothing new behind; a
 * folder whose root no longer exists, or unused for 30 days, is removed when the next one is prepared.
 */
export function generatedDatabase(root: string, base: string = tmpdir()): LaunchPreparation | undefined {
  if (hasCompilationDatabase(root)) return undefined;
  const flagsFile = join(root, 'compile_flags.txt');
  const flags = readFlags(flagsFile);
  const { files } = listSourceFiles(root, SOURCES, MAX_FILES);
  const entries = files.map((file) => ({ directory: root, file, arguments: ['clang', ...flags, '-c', file] }));
  const home = databaseFolder(root, base);
  pruneDatabases(base, home);
  const dir = home ?? mkdtempSync(join(base, PREFIX));
  writeFileAtomic(join(dir, 'compile_commands.json'), JSON.stringify(entries));
  writeFileAtomic(join(dir, ROOT_FILE), root);
  // Only a one-off folder (the per-root one could not be used) is removed when the server exits.
  return { args: [`--compile-commands-dir=${dir}`], cleanup: home ? () => {} : () => rmSync(dir, { recursive: true, force: true }) };
}

/** The folder of a root's generated database: `agent-tools-clangd-<uid>-<hash of the root>`, private to the user. */
export function databaseFolderName(root: string): string {
  return `${PREFIX}${userTag()}-${createHash('sha256').update(root).digest('hex').slice(0, 16)}`;
}

/**
 * Creates (or finds) the per-root folder; undefined when it cannot be trusted: not a directory of ours (a symbolic
 * link, or another user's in a shared temporary directory), in which case a one-off folder is used instead.
 */
function databaseFolder(root: string, base: string): string | undefined {
  const dir = join(base, databaseFolderName(root));
  try {
    mkdirSync(dir, { mode: 0o700 });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') return undefined;
  }
  try {
    const info = lstatSync(dir);
    if (!info.isDirectory() || (process.getuid && info.uid !== process.getuid())) return undefined;
    return dir;
  } catch {
    // lstat raises only file-system errors: no usable directory.
    return undefined;
  }
}

/** Removes this user's database folders whose root is gone, or that were not used for a long time. */
function pruneDatabases(base: string, keep: string | undefined): void {
  let names: string[];
  try {
    names = readdirSync(base);
  } catch {
    // readdir raises only file-system errors: nothing to clean.
    return;
  }
  const mine = `${PREFIX}${userTag()}-`;
  const now = Date.now();
  for (const name of names) {
    if (!name.startsWith(mine)) continue;
    const dir = join(base, name);
    if (dir === keep) continue;
    try {
      const info = lstatSync(dir);
      if (!info.isDirectory()) continue;
      const used = statSync(join(dir, 'compile_commands.json'), { throwIfNoEntry: false })?.mtimeMs ?? info.mtimeMs;
      const root = readRegularFileSync(join(dir, ROOT_FILE)).toString('utf8');
      const gone = !existsSync(root) && now - used > GONE_GRACE_MS;
      if (gone || now - used > UNUSED_MS) rmSync(dir, { recursive: true, force: true });
    } catch {
      // Being set up by another run, or already removed: leave it.
    }
  }
}

function userTag(): string {
  return process.getuid ? String(process.getuid()) : 'user';
}

/**
 * The flags of `compile_flags.txt`, none when there is no such file or it is not a regular one: it is read on the
 * harness's main thread, where a FIFO opened for reading would block every call and signal for good.
 */
function readFlags(flagsFile: string): string[] {
  if (!existsSync(flagsFile)) return [];
  try {
    return readRegularFileSync(flagsFile)
      .toString('utf8')
      .split(/\r?\n/)
      .map((line) => line.trim())
      .filter(Boolean);
  } catch {
    // A missing or unreadable file (readFile raises only file-system errors): no entries.
    return [];
  }
}
