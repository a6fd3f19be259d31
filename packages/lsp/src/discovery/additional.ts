import { dirname } from 'node:path';
import { findRoot } from '@agent-tools/core/internal';
import { handlesFile } from '../config/file-match.js';
import type { ServerConfig } from '../config/server-config.js';
import { findBinary, type ResolvedCommand } from './binary.js';
import type { ResolutionContext } from './resolution.js';

/** Whether, and with what, an additional server (ESLint, Biome) can add its findings for a file. */
export type AdditionalResolution =
  | { readonly ok: true; readonly config: ServerConfig; readonly root: string; readonly binary: ResolvedCommand }
  /** The project uses it (its root marker is there), but it cannot start: say why, never skip it silently. */
  | { readonly ok: false; readonly config: ServerConfig; readonly root: string; readonly reason: string };

/**
 * The additional servers of a file: every configuration with role `additional` that handles its extension and whose
 * root marker is between the file and the working directory. One without a marker is not used by the project and is
 * left out; one with a marker but no binary, or without what it needs in the project (ESLint's own `eslint`
 * package), comes back with the reason.
 */
export function resolveAdditional(path: string, context: ResolutionContext): AdditionalResolution[] {
  const out: AdditionalResolution[] = [];
  for (const config of context.servers) {
    if (config.role !== 'additional' || !handlesFile(config, path)) continue;
    const root = findRoot(config.rootMarkers, dirname(path), context.cwd)?.dir;
    if (!root) continue;
    const known = context.known(config, root);
    if (known) {
      out.push({ ok: true, config, root, binary: known });
      continue;
    }
    const lookup = findBinary({
      names: config.binaries,
      root,
      cwd: context.cwd,
      path: context.env['PATH'],
      ...(config.bundled ? { bundled: config.bundled } : {}),
    });
    const needs = config.requires?.({ root, cwd: context.cwd });
    if (!lookup.found) out.push({ ok: false, config, root, reason: `its binary (${config.binaries.join(', ')}) was not found (looked in ${lookup.looked.join(', ')})` });
    else if (needs) out.push({ ok: false, config, root, reason: needs });
    else out.push({ ok: true, config, root, binary: lookup.found });
  }
  return out;
}
