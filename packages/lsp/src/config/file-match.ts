import { basename, extname } from 'node:path';
import type { ServerConfig } from './server-config.js';

/**
 * The LSP language id a configuration gives a file: by its exact name first (`Dockerfile`, which has no extension),
 * then by its extension; undefined when the configuration does not handle it.
 */
export function languageOf(config: ServerConfig, path: string): string | undefined {
  return config.filenames?.[basename(path)] ?? config.extensions[extname(path).toLowerCase()];
}

/** Whether a configuration handles a file, by name or extension. */
export function handlesFile(config: ServerConfig, path: string): boolean {
  return languageOf(config, path) !== undefined;
}
