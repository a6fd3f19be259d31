import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { listSourceFiles } from '../../discovery/root.js';
import type { LaunchPreparation } from '../server-config.js';

/** Translation units clangd compiles (headers are indexed through the files that include them). */
const SOURCES = ['.c', '.cc', '.cpp', '.cxx', '.c++', '.m', '.mm'];
const MAX_FILES = 5000;

/** Whether a root has a compilation database of its own, where clangd looks for one. */
export function hasCompilationDatabase(root: string): boolean {
  return ['compile_commands.json', 'build/compile_commands.json'].some((file) => existsSync(join(root, file)));
}

/**
 * For a C/C++ root without a compilation database, one in a temporary folder that lists every source file with
 * the flags of `compile_flags.txt` (or none), passed with `--compile-commands-dir`. Without it clangd indexes
 * only the files it has opened, and references, call hierarchies and renames silently miss the rest; with it,
 * clangd indexes the whole project in the background and says so with work-done progress. The index clangd
 * stores beside the database goes with the temporary folder, not into the project.
 */
export function generatedDatabase(root: string): LaunchPreparation | undefined {
  if (hasCompilationDatabase(root)) return undefined;
  const flagsFile = join(root, 'compile_flags.txt');
  const flags = existsSync(flagsFile)
    ? readFileSync(flagsFile, 'utf8')
        .split(/\r?\n/)
        .map((line) => line.trim())
        .filter(Boolean)
    : [];
  const { files } = listSourceFiles(root, SOURCES, MAX_FILES);
  const dir = mkdtempSync(join(tmpdir(), 'agent-tools-clangd-'));
  const entries = files.map((file) => ({ directory: root, file, arguments: ['clang', ...flags, '-c', file] }));
  writeFileSync(join(dir, 'compile_commands.json'), JSON.stringify(entries));
  return {
    args: [`--compile-commands-dir=${dir}`],
    cleanup: () => rmSync(dir, { recursive: true, force: true }),
  };
}
