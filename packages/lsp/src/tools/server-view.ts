import { statSync } from 'node:fs';
import { readRegularFileSync } from '@agent-tools/core';
import type { LanguageServer } from '../server/language-server.js';

/**
 * Margin for file systems with coarse timestamps: a file written this close before the server started may have
 * been read by it before the write.
 */
const CLOCK_MARGIN_MS = 1000;

/**
 * Files a server may hold an older copy of: they exist, the server handles them but has not opened them, and they
 * were written after it started (`since`). A server reads such files from disk when it needs them and notices later
 * writes only through its own watchers, if at all, so an edit it computes for them can land on lines that have
 * moved. Files written at or after `until` (by the server itself while running a command) are not counted.
 */
export function maybeStale(server: LanguageServer, paths: readonly string[], until = Number.POSITIVE_INFINITY): string[] {
  return paths.filter((path) => {
    if (!server.handles(path) || server.documents.get(path)) return false;
    const mtime = statSync(path, { throwIfNoEntry: false })?.mtimeMs;
    return mtime !== undefined && mtime >= server.startedAt - CLOCK_MARGIN_MS && mtime < until;
  });
}

/** Opens files with the server (their content as on disk now), so its next answer is about them as they are. */
export function openAll(server: LanguageServer, paths: readonly string[]): void {
  for (const path of paths) server.open(path);
}

/** The text of files now, undefined for those that do not exist. */
export function snapshotTexts(paths: readonly string[]): Map<string, string | undefined> {
  return new Map(paths.map((path) => [path, readText(path)]));
}

/** A file's text, undefined when it cannot be read. */
export function readText(path: string): string | undefined {
  try {
    return readRegularFileSync(path).toString('utf8');
  } catch {
    // A file-system error or not_regular_file: no text.
    return undefined;
  }
}
