import type { ServerConfig } from '../config/server-config.js';
import type { AdditionalResolution } from '../discovery/additional.js';
import type { ResolvedCommand } from '../discovery/binary.js';
import type { Resolution } from '../discovery/resolution.js';

/** A server that will be asked about a file: its primary one, or an additional one (ESLint, Biome). */
export interface FileServer {
  readonly config: ServerConfig;
  readonly root: string;
  readonly binary: ResolvedCommand;
  readonly additional: boolean;
}

/** Every server of a file, or why none can look at it; with the additional servers that cannot start, and why. */
export type FileServers =
  | { readonly ok: true; readonly servers: readonly FileServer[]; readonly missing: ReadonlyArray<{ readonly server: string; readonly reason: string }> }
  | { readonly ok: false; readonly resolution: Extract<Resolution, { ok: false }> };

/**
 * The servers whose diagnostics of a file are merged: the primary server, then the additional ones whose root
 * marker is found. A file no primary server handles is still checked by its additional servers (a `.json` file
 * Biome lints when the JSON server is turned off); a primary server that exists but cannot start makes the file
 * unchecked, as before, since its types are what a write most often breaks.
 */
export function fileServers(primary: Resolution, additional: readonly AdditionalResolution[]): FileServers {
  const usable = additional.filter((a): a is Extract<AdditionalResolution, { ok: true }> => a.ok);
  const missing = additional
    .filter((a): a is Extract<AdditionalResolution, { ok: false }> => !a.ok)
    .map((a) => ({ server: a.config.name, reason: a.reason }));
  const extra = usable.map((a) => ({ config: a.config, root: a.root, binary: a.binary, additional: true }));
  if (primary.ok) return { ok: true, servers: [{ config: primary.config, root: primary.root, binary: primary.binary, additional: false }, ...extra], missing };
  if (primary.code === 'no_server' && (extra.length > 0 || missing.length > 0)) return { ok: true, servers: extra, missing };
  return { ok: false, resolution: primary };
}
