import { existsSync, readFileSync } from 'node:fs';
import { isAbsolute, join } from 'node:path';
import type { ProblemReader } from '../server-config.js';
import { findProjectPackage } from './project-package.js';

/** How many of Biome's error lines a reason quotes; a broken configuration rarely has more distinct ones. */
const MAX_ERRORS = 5;

/**
 * Why Biome's server lints nothing: a configuration it cannot load is logged as errors (`expected `}` but instead the
 * file ends`, `Found an unknown key `rulez`.`) when it starts, and it then publishes no diagnostics at all, so waiting
 * for them would only run out. The reason quotes every distinct error (fixing only the last one and retrying would
 * meet the next), says what ran (the project's Biome and its version, the configuration file) and what to do. The
 * errors stay in this process's log: once the configuration is fixed, `reload` starts a server with a clean one.
 */
export const biomeProblem: ProblemReader = (report) => {
  const errors = [...new Set(report.log.filter((line) => line.type === 1).map((line) => line.message.trim().split('\n')[0]?.slice(0, 300) ?? ''))].filter(Boolean);
  if (errors.length === 0) return undefined;
  const config = ['biome.json', 'biome.jsonc'].find((name) => existsSync(join(report.root, name)));
  const name = config ?? 'its configuration';
  const quoted = errors.slice(0, MAX_ERRORS).join('; ');
  const more = errors.length > MAX_ERRORS ? ` (and ${errors.length - MAX_ERRORS} more)` : '';
  const missing = config ? missingExtends(join(report.root, config), report.root) : [];
  const extendsNote = missing.length ? `; it extends ${missing.join(', ')}, which does not exist` : '';
  const version = biomeVersion(report.root);
  const ran = [version ? `Biome ${version}` : 'Biome', report.binary ? `${report.binary} lsp-proxy` : undefined].filter(Boolean).join(', ');
  const where = config ? `${config} in ${report.rootLabel ?? report.root}` : report.rootLabel ?? report.root;
  return `could not load ${name}: ${quoted}${more}${extendsNote} (${ran} read ${where}; fix it (\`npx biome check\` in the project shows where each problem is), then call lsp with action "reload")`;
};

/** The project's own Biome version, from its installed package. */
function biomeVersion(root: string): string | undefined {
  const dir = findProjectPackage('@biomejs/biome', root);
  if (!dir) return undefined;
  try {
    return (JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { version?: string }).version;
  } catch {
    // A missing or unreadable manifest (file-system or JSON errors only): the version is unknown.
    return undefined;
  }
}

/**
 * The relative files a configuration `extends` that are not there: Biome reports them only as "No such file or
 * directory (os error 2)", without a name. Read loosely (JSONC, possibly broken): the strings of the `extends` value.
 */
function missingExtends(configPath: string, root: string): string[] {
  let text: string;
  try {
    text = readFileSync(configPath, 'utf8');
  } catch {
    // The configuration file is unreadable (readFile raises only file-system errors): nothing to check in it.
    return [];
  }
  const value = /"extends"\s*:\s*(\[[^\]]*\]|"[^"]*")/.exec(text)?.[1] ?? '';
  const entries = [...value.matchAll(/"([^"]+)"/g)].map((m) => m[1] ?? '');
  // Package names (`ultracite/core`) are resolved by Biome from node_modules: only paths are checked here.
  return entries.filter((entry) => (entry.startsWith('.') || isAbsolute(entry)) && !existsSync(isAbsolute(entry) ? entry : join(root, entry)));
}
