import { readFileSync } from 'node:fs';
import { basename, dirname, extname } from 'node:path';
import type { CheckOptions, Dependents } from '@agent-tools/core';
import { rethrowUnexpected } from '@agent-tools/core/internal';
import { listSourceFiles } from '../discovery/root.js';
import type { LanguageServer } from '../server/language-server.js';
import type { CheckHost } from './check-files.js';

/** The most source files of a root read to find the files that mention a written module (on every write's baseline). */
const MAX_SCANNED = 1000;

/**
 * The files that depend on written ones. The server's own knowledge first (the configuration's `dependents`:
 * tsserver's `fileReferences`, every import of the file); otherwise the files of the same root that name the module
 * (its file name without extension as a whole word; for a package's `__init__.py`, the package's folder), and for
 * Go every file of the same package. Open documents first: the server has them at hand.
 */
export async function findDependents(host: CheckHost, files: readonly string[], options: CheckOptions & { readonly max: number }): Promise<Dependents> {
  const written = new Set(files);
  const found = new Set<string>();
  const hows = new Set<string>();
  for (const file of written) {
    const resolution = host.resolve(file);
    if (!resolution.ok) continue;
    const server = await host.serverForRoot(resolution.config, resolution.root, resolution.binary, options.signal);
    const own = server.config.dependents;
    let list: readonly string[] | undefined;
    if (own) {
      server.open(file);
      // A finder that fails (an LspError: the server timed out) finds nothing; a bug propagates to the write's
      // diagnostics, which report it to onError.
      list = await own({
        path: file,
        timeoutMs: options.budgetMs,
        execute: (command, args, timeoutMs) => server.executeCommand(command, args, timeoutMs, options.signal),
      }).catch((error: unknown) => {
        rethrowUnexpected(error);
        return undefined;
      });
      if (list) hows.add(`the files that import it, per ${server.config.name}`);
    }
    if (!list) {
      const header = HEADER.test(file);
      const scan = header ? including(server, file) : mentioning(server, file);
      list = scan.files;
      const what = header ? 'the files of its project that include it, directly or through other headers' : 'the files of its project that name it';
      hows.add(scan.cut ? `${what}, among the first ${MAX_SCANNED}` : what);
    }
    for (const path of list) if (!written.has(path)) found.add(path);
  }
  const ordered = [...found].sort((a, b) => rank(host, a) - rank(host, b) || a.localeCompare(b));
  return { files: ordered.slice(0, options.max), total: ordered.length, how: [...hows].join('; ') || 'none found' };
}

function rank(host: CheckHost, path: string): number {
  return host.isOpen(path) ? 0 : 1;
}

/** C and C++ headers: what depends on one is what includes it, not what names it. */
const HEADER = /\.(h|hh|hpp|hxx|h\+\+|inc|inl|ipp|tcc)$/i;
const INCLUDE = /^[ \t]*#[ \t]*(?:include|import)[ \t]*[<"]([^>"\n]+)[>"]/gm;

/**
 * Files of the server's root that include a header, directly or through headers that include it (curl.h includes
 * easy.h, so a file including curl.h depends on easy.h). Includes are matched by the header's file name, as a
 * compiler's search path would find it under any include directory.
 */
function including(server: LanguageServer, file: string): { files: string[]; cut: boolean } {
  const listed = listSourceFiles(server.root, Object.keys(server.config.extensions), MAX_SCANNED);
  const includers = new Map<string, string[]>();
  for (const path of listed.files) {
    const text = server.documents.get(path)?.text ?? readSafely(path);
    if (text === undefined) continue;
    for (const match of text.matchAll(INCLUDE)) {
      const name = basename(match[1] as string);
      includers.set(name, [...(includers.get(name) ?? []), path]);
    }
  }
  const found = new Set<string>();
  const queue = [file];
  while (queue.length > 0) {
    const header = queue.shift() as string;
    for (const path of includers.get(basename(header)) ?? []) {
      if (path === file || found.has(path)) continue;
      found.add(path);
      if (HEADER.test(path)) queue.push(path);
    }
  }
  return { files: [...found], cut: listed.seen > listed.files.length };
}

/** Files of the server's root that name the module, and for Go the other files of its package. */
function mentioning(server: LanguageServer, file: string): { files: string[]; cut: boolean } {
  const ext = extname(file);
  const stem = basename(file, ext);
  const name = stem === '__init__' || stem === 'index' || stem === 'mod' ? basename(dirname(file)) : stem;
  const word = new RegExp(`(?<![\\p{ID_Continue}$])${name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?![\\p{ID_Continue}$])`, 'u');
  const samePackage = ext === '.go' ? dirname(file) : undefined;
  const out: string[] = [];
  const listed = listSourceFiles(server.root, Object.keys(server.config.extensions), MAX_SCANNED);
  for (const path of listed.files) {
    if (path === file) continue;
    if (samePackage !== undefined && dirname(path) === samePackage) {
      out.push(path);
      continue;
    }
    const text = server.documents.get(path)?.text ?? readSafely(path);
    if (text !== undefined && word.test(text)) out.push(path);
  }
  return { files: out, cut: listed.seen > listed.files.length };
}

function readSafely(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    // readFile raises only file-system errors: the file is gone.
    return undefined;
  }
}
