import { copyFileSync, existsSync, mkdirSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';

/** The agent-tools workspace the benchmark runs in (where pnpm-workspace.yaml is). */
export function workspaceRoot(): string {
  let dir = process.cwd();
  while (!existsSync(join(dir, 'pnpm-workspace.yaml'))) {
    const parent = dirname(dir);
    if (parent === dir) throw new Error('run the benchmark inside the agent-tools workspace');
    dir = parent;
  }
  return dir;
}

/**
 * The ast benchmarks' corpus: copies up to `limit` JavaScript files of the installed npm packages into `to`, in a stable
 * order (the same files for every ast benchmark, so their figures can be read side by side).
 */
export function buildCorpus(to: string, limit: number): { files: number; bytes: number } {
  const store = join(workspaceRoot(), 'node_modules', '.pnpm');
  const found: string[] = [];
  const visit = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
      const full = join(dir, entry.name);
      if (entry.isDirectory() && !entry.name.startsWith('.')) visit(full);
      else if (entry.isFile() && /\.(?:m|c)?js$/.test(entry.name) && !entry.name.endsWith('.min.js')) found.push(full);
    }
  };
  visit(store);
  let bytes = 0;
  let files = 0;
  for (const file of found) {
    if (files >= limit) break;
    const size = statSync(file).size;
    if (size > 100 * 1024) continue;
    const target = join(to, relative(store, file).replaceAll('node_modules', 'nm'));
    mkdirSync(dirname(target), { recursive: true });
    copyFileSync(file, target);
    bytes += size;
    files++;
  }
  return { files, bytes };
}
