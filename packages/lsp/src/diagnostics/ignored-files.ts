import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { LanguageServer } from '../server/language-server.js';

/** How long asking a server's binary which files its configuration ignores may take. */
const IGNORE_CHECK_MS = 10_000;
/** Files asked about in one run of the binary at most (its command line stays short). */
const MAX_BATCH = 200;

interface Answer {
  /** What the answer depends on (see {@link stampOf}). */
  readonly stamp: string;
  readonly ignored: Promise<boolean>;
}

interface Batch {
  readonly paths: Map<string, (ignored: boolean) => void>;
}

/** Each server's answers by path, and the batch being gathered for its next run. */
const answers = new WeakMap<LanguageServer, Map<string, Answer>>();
const batches = new WeakMap<LanguageServer, Batch>();

/**
 * Whether the server's configuration leaves the file out, for a server that can tell (`ServerConfig.ignores`); each
 * file is asked once while the root's marker files (the configuration) and `.gitignore` are unchanged. The files
 * asked about in the same turn of the event loop (a write of many files) share one run of the server's binary. A check
 * that fails or cannot run in time ignores nothing: the file's diagnostics are awaited as usual.
 */
export function ignoredByConfiguration(server: LanguageServer, path: string): Promise<boolean> {
  if (!server.config.ignores) return Promise.resolve(false);
  const stamp = stampOf(server, path);
  const known = answers.get(server) ?? new Map<string, Answer>();
  answers.set(server, known);
  const cached = known.get(path);
  if (cached?.stamp === stamp) return cached.ignored;
  const ignored = new Promise<boolean>((resolve) => {
    let batch = batches.get(server);
    if (!batch || batch.paths.size >= MAX_BATCH) {
      const next: Batch = { paths: new Map() };
      batches.set(server, next);
      setImmediate(() => {
        if (batches.get(server) === next) batches.delete(server);
        void runBatch(server, next);
      });
      batch = next;
    }
    batch.paths.set(path, resolve);
  });
  known.set(path, { stamp, ignored });
  return ignored;
}

async function runBatch(server: LanguageServer, batch: Batch): Promise<void> {
  const check = server.config.ignores;
  const paths = [...batch.paths.keys()];
  let ignored: ReadonlySet<string> = new Set();
  try {
    if (check) ignored = await check({ root: server.root, paths, run: (args, timeoutMs) => server.runBinary(args, Math.min(timeoutMs, IGNORE_CHECK_MS)) });
  } catch (error) {
    // The configuration's hook is code of its own: a throw ignores nothing, and is a bug the harness hears of.
    server.reportBug(error);
  }
  for (const [path, resolve] of batch.paths) resolve(ignored.has(path));
}

/**
 * What an answer depends on: the root's marker files (the configuration) and `.gitignore`, by modification time, and
 * whether the file exists. Not the file's own time: a write changes it, and whether a path is ignored does not
 * depend on what the file holds (a `files.maxSize` crossed by a write is the exception, not asked again).
 */
function stampOf(server: LanguageServer, path: string): string {
  const exists = existsSync(path) ? 'file' : 'none';
  return [...server.config.rootMarkers.map((m) => join(server.root, m)), join(server.root, '.gitignore')]
    .map((file) => {
      try {
        return String(statSync(file).mtimeMs);
      } catch {
        // A file that is not there (a marker the root does not use) counts as missing.
        return '-';
      }
    })
    .concat(exists)
    .join(':');
}
