import { basename, dirname } from 'node:path';
import { FileChangeType } from 'vscode-languageserver-protocol';
import type { LanguageServer } from '../server/language-server.js';
import { toUri } from '../util/paths.js';

/**
 * Tells each running server whose configuration a write changed (a root marker in its root: `biome.jsonc`,
 * `eslint.config.mjs`, `tsconfig.json`) that the file changed on disk, as an editor's file watcher would; a server
 * that reads its configuration only when it starts (`ServerConfig.configurationChange: 'restart'`, Biome) is stopped
 * instead, and the next call starts it with the new one. A server that has the file open sees its text change too,
 * but that is an edit of a document to it, not of its configuration: Biome went on linting with the old one, and on
 * ignoring what the new one no longer ignores. Resolves once the servers to restart have stopped.
 */
export async function applyConfigurationChanges(servers: readonly LanguageServer[], files: readonly string[]): Promise<void> {
  const stopping: Promise<void>[] = [];
  for (const server of servers) {
    const changed = files.filter((file) => dirname(file) === server.root && server.config.rootMarkers.includes(basename(file)));
    if (changed.length === 0) continue;
    if (server.config.configurationChange === 'restart') stopping.push(server.stop());
    else server.documents.watched(changed.map((file) => ({ uri: toUri(file), type: FileChangeType.Changed })));
  }
  await Promise.all(stopping);
}
