import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative } from 'node:path';
import { gunzipSync } from 'node:zlib';

const require = createRequire(import.meta.url);

/** The ast-grep binary of the `@ast-grep/cli` devDependency. */
export const AST_GREP = join(dirname(require.resolve('@ast-grep/cli/package.json')), 'ast-grep');

/** Copies the files under `from` (recursively, optionally limited) whose names pass `accept` into `to`. */
export function copyCorpus(
  from: string,
  to: string,
  accept: (name: string) => boolean,
  { limit = Infinity, recursive = true, rename, testdata = false }: { limit?: number; recursive?: boolean; rename?: string; testdata?: boolean } = {},
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
        if (recursive && (testdata || entry.name !== 'testdata') && !entry.name.startsWith('.') && entry.name !== 'node_modules') visit(full);
      } else if (entry.isFile() && accept(entry.name) && statSync(full).size < 512 * 1024) {
        // Debian compresses larger documentation files (`runme.cs.gz`): the copy is the file itself.
        const gzipped = entry.name.endsWith('.gz');
        const name = join(to, relative(from, full)).replace(/\.gz$/, '');
        const target = name + (rename && !name.endsWith(rename) ? rename : '');
        mkdirSync(dirname(target), { recursive: true });
        if (gzipped) writeFileSync(target, gunzipSync(readFileSync(full)));
        else cpSync(full, target);
        copied.push(target);
      }
    }
  };
  visit(from);
  return copied;
}
