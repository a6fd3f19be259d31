import { execFile } from 'node:child_process';
import { accessSync, constants, readdirSync, statSync } from 'node:fs';
import { delimiter, join } from 'node:path';

/** Whether `path` is an executable regular file (symlinks followed). */
export function isExecutable(path: string): boolean {
  try {
    if (!statSync(path).isFile()) return false;
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** The folders of `$PATH`, in order, without empties or duplicates. */
export function pathDirs(env: NodeJS.ProcessEnv): string[] {
  return [...new Set((env['PATH'] ?? '').split(delimiter).filter(Boolean))];
}

/** The first executable named `name` in `dirs`. */
export function findIn(name: string, dirs: readonly string[]): string | undefined {
  for (const dir of dirs) {
    const candidate = join(dir, name);
    if (isExecutable(candidate)) return candidate;
  }
  return undefined;
}

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

/** Shortens a path under the home folder for messages. */
export function tildify(path: string, env: NodeJS.ProcessEnv): string {
  const home = env['HOME'];
  return home && path.startsWith(`${home}/`) ? `~${path.slice(home.length)}` : path;
}
