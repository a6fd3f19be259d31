import { execFile } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative } from 'node:path';
import { promisify } from 'node:util';
import type { MatchRecord, TreeSitterLoader } from '../src/index.js';
import { searchWorkspace } from '../src/workspace/search.js';

const run = promisify(execFile);
const require = createRequire(import.meta.url);

/** The ast-grep binary of the `@ast-grep/cli` devDependency. */
export const AST_GREP = join(dirname(require.resolve('@ast-grep/cli/package.json')), 'ast-grep');

/** A match location both tools can report: file, then UTF-8 byte range. */
export type Location = string;

/** Copies the files under `from` (recursively, optionally limited) whose names pass `accept` into `to`. */
export function copyCorpus(
  from: string,
  to: string,
  accept: (name: string) => boolean,
  { limit = Infinity, recursive = true, rename }: { limit?: number; recursive?: boolean; rename?: string } = {},
): string[] {
  if (!existsSync(from)) {
    throw new Error(`The agreement corpus ${from} is missing on this machine; install the package that provides it (see apt-packages.txt).`);
  }
  const copied: string[] = [];
  const visit = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      if (copied.length >= limit) return;
      const full = join(dir, entry.name);
      if (entry.isDirectory()) {
        if (recursive && entry.name !== 'testdata' && !entry.name.startsWith('.') && entry.name !== 'node_modules') visit(full);
      } else if (entry.isFile() && accept(entry.name) && statSync(full).size < 512 * 1024) {
        const target = join(to, relative(from, full)) + (rename && !entry.name.endsWith(rename) ? rename : '');
        mkdirSync(dirname(target), { recursive: true });
        cpSync(full, target);
        copied.push(target);
      }
    }
  };
  visit(from);
  return copied;
}

/** Where ast-grep's CLI finds a pattern under `dir`. */
export async function cliLocations(dir: string, language: string, pattern: string): Promise<Location[]> {
  let stdout: string;
  try {
    ({ stdout } = await run(AST_GREP, ['run', '--pattern', pattern, '--lang', language, '--json=stream', '.'], {
      cwd: dir,
      maxBuffer: 256 * 1024 * 1024,
    }));
  } catch (error) {
    // ast-grep exits with 1 when nothing matched.
    const failed = error as { code?: number; stdout?: string; stderr?: string };
    if (failed.code !== 1 || failed.stderr?.trim()) throw error;
    stdout = failed.stdout ?? '';
  }
  const out: Location[] = [];
  for (const line of stdout.split('\n')) {
    if (!line.trim()) continue;
    const match = JSON.parse(line) as { file: string; range: { byteOffset: { start: number; end: number } } };
    out.push(`${match.file}@${match.range.byteOffset.start}-${match.range.byteOffset.end}`);
  }
  return out.sort();
}

/** Where our matcher finds a pattern under `dir`, in the same terms (UTF-8 byte offsets), with the matches. */
export async function ourLocations(
  loader: TreeSitterLoader,
  dir: string,
  language: string,
  pattern: string,
): Promise<Map<Location, MatchRecord>> {
  const summary = await searchWorkspace(loader, dir, { pattern, language });
  const out = new Map<Location, MatchRecord>();
  for (const result of summary.results) {
    const text = readFileSync(result.absolute, 'utf8');
    for (const match of result.matches) {
      const start = Buffer.byteLength(text.slice(0, match.start));
      const end = start + Buffer.byteLength(match.text);
      out.set(`${result.file}@${start}-${end}`, match);
    }
  }
  return out;
}

/** Locations only one side found. */
export function difference(ours: readonly Location[], theirs: readonly Location[]): { onlyOurs: Location[]; onlyTheirs: Location[] } {
  const a = new Set(ours);
  const b = new Set(theirs);
  return { onlyOurs: ours.filter((l) => !b.has(l)), onlyTheirs: theirs.filter((l) => !a.has(l)) };
}

