import { execFile } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { isExecutable } from '@agent-tools/core/internal';

/**
 * Executables in `dirs` whose name matches `pattern`, best first: Debian ships `lldb-dap-19` and
 * `lldb-vscode-14` rather than `lldb-dap`, so exact names are not enough. `rank` orders the names (lower
 * first); within a rank, earlier folders win.
 */
export function findMatching(pattern: RegExp, dirs: readonly string[], rank: (name: string) => number): string[] {
  const found: { path: string; rank: number; order: number }[] = [];
  dirs.forEach((dir, order) => {
    let names: string[];
    try {
      names = readdirSync(dir);
    } catch {
      // readdir raises only file-system errors: nothing found here.
      return;
    }
    for (const name of names) {
      if (!pattern.test(name)) continue;
      const path = join(dir, name);
      if (isExecutable(path)) found.push({ path, rank: rank(name), order });
    }
  });
  found.sort((a, b) => a.rank - b.rank || a.order - b.order);
  return found.map((f) => f.path);
}

/** Runs a short command and returns its stdout, or `undefined` when it failed or took over `timeoutMs`. */
export function probe(command: string, args: readonly string[], timeoutMs = 5000, signal?: AbortSignal): Promise<string | undefined> {
  return new Promise((resolve) => {
    execFile(command, [...args], { timeout: timeoutMs, killSignal: 'SIGKILL', ...(signal ? { signal } : {}) }, (error, stdout) =>
      resolve(error ? undefined : stdout.trim()),
    );
  });
}
