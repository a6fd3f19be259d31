import { dirname, extname } from 'node:path';
import { findRoot } from '@agent-tools/core/internal';
import { handlesFile } from '../config/file-match.js';
import type { ServerConfig } from '../config/server-config.js';
import { displayPath } from '../util/paths.js';
import { findBinary, type ResolvedCommand } from './binary.js';

/** Whether, and with what, a server can answer for a file. */
export type Resolution =
  | { readonly ok: true; readonly config: ServerConfig; readonly root: string; readonly binary: ResolvedCommand }
  | {
      readonly ok: false;
      readonly code: 'no_server' | 'no_root' | 'no_binary';
      readonly reason: string;
      readonly config?: ServerConfig;
    };

/** Where servers are looked for. */
export interface ResolutionContext {
  readonly cwd: string;
  /** The configurations in order of preference. */
  readonly servers: readonly ServerConfig[];
  readonly env: NodeJS.ProcessEnv;
  /** The binary a server already running for this root was started with, so it is not looked up again. */
  known(config: ServerConfig, root: string): ResolvedCommand | undefined;
}

/**
 * Decides at call time whether a server can answer for a file: a root marker between the file and the working
 * directory, and the server's binary. The first configuration with both wins; otherwise the reason names what
 * is missing and where it was looked for.
 */
export function resolveServer(path: string, context: ResolutionContext): Resolution {
  // Additional servers (ESLint, Biome) never answer navigation; they join a file's primary server for diagnostics.
  const primaries = context.servers.filter((config) => config.role !== 'additional');
  const candidates = primaries.filter((config) => handlesFile(config, path));
  const rel = displayPath(path, context.cwd);
  if (candidates.length === 0) {
    const shown = extname(path) || 'files without an extension';
    const known = [...new Set(primaries.flatMap((c) => Object.keys(c.extensions)))].join(' ');
    return { ok: false, code: 'no_server', reason: `No language server is configured for ${shown} files (${rel}). Servers exist for: ${known}.` };
  }
  const failures: Array<Extract<Resolution, { ok: false }>> = [];
  for (const config of candidates) {
    const root = findRoot(config.rootMarkers, dirname(path), context.cwd)?.dir;
    const existing = root ? context.known(config, root) : undefined;
    const lookup = existing
      ? { found: existing, looked: [] }
      : findBinary({
          names: config.binaries,
          root: root ?? dirname(path),
          cwd: context.cwd,
          path: context.env['PATH'],
          ...(config.bundled ? { bundled: config.bundled } : {}),
        });
    if (root && lookup.found) return { ok: true, config, root, binary: lookup.found };
    const markers = config.rootMarkers.join(', ');
    const where = displayPath(dirname(path), context.cwd);
    const noRoot = `no root marker (${markers}) was found from ${where} up to the working directory`;
    const names = `${config.binaries.slice(0, 3).join(', ')}${config.binaries.length > 3 ? ', …' : ''}`;
    const noBinary = `its binary (${names}) was not found (looked in ${lookup.looked.join(', ')})`;
    const lead = `${config.name} (${config.languages}) cannot answer for ${rel}:`;
    if (!root && !lookup.found) failures.push({ ok: false, code: 'no_root', config, reason: `${lead} ${noRoot}, and ${noBinary}.` });
    else if (!root) {
      failures.push({
        ok: false,
        code: 'no_root',
        config,
        reason: `${lead} ${noRoot}. Create the project's configuration file there, or work in a folder that has one.`,
      });
    } else failures.push({ ok: false, code: 'no_binary', config, reason: `${lead} ${noBinary}. Install it, or tell the user it is missing.` });
  }
  const first = failures[0] as Extract<Resolution, { ok: false }>;
  return failures.length === 1 ? first : { ...first, reason: failures.map((f) => f.reason).join(' ') };
}
