import { statSync } from 'node:fs';
import { readRegularFileSync } from '@agent-tools/core';
import { FileChangeType, type FileEvent } from 'vscode-languageserver-protocol';
import { toUri } from '../util/paths.js';

/** A file as the server currently sees it. */
export interface OpenDocument {
  readonly path: string;
  readonly uri: string;
  readonly languageId: string;
  version: number;
  text: string;
  mtimeMs: number;
  size: number;
  /** The publish sequence number when this version was sent: a later publish is about this version or newer. */
  syncSeq: number;
  lastUsed: number;
}

/** What a sync did. */
export interface SyncResult {
  /** The document, or undefined when the file no longer exists (it was closed). */
  readonly doc: OpenDocument | undefined;
  /** Whether a new version was sent. */
  readonly changed: boolean;
}

/** The notifications a {@link DocumentSync} sends, bound to one server. */
export interface DocumentChannel {
  open(doc: OpenDocument): void;
  change(doc: OpenDocument): void;
  save(doc: OpenDocument): void;
  close(doc: OpenDocument): void;
  watched(changes: readonly FileEvent[]): void;
  /** The server's current publish sequence number. */
  seq(): number;
}

/**
 * Keeps a server's open documents in line with the disk. Files are written to disk first and synced after,
 * never the other way round: a server told about a file that does not exist yet reports stale
 * "cannot find module" errors. Versions only grow, also across close and reopen, so a publish can always be
 * matched to the version it is about. At most `maxOpen` documents stay open; the least recently used closes.
 */
export class DocumentSync {
  readonly #channel: DocumentChannel;
  readonly #languageOf: (path: string) => string;
  readonly #maxOpen: number;
  readonly #open = new Map<string, OpenDocument>();
  readonly #versions = new Map<string, number>();
  readonly #reopen: boolean;
  /** Counts every change the server was told of; `#stamps` holds the count when each open document was last sent. */
  #changes = 0;
  readonly #stamps = new Map<string, number>();

  /**
   * `reopen`: send a changed document closed and opened again when other files changed since it was last sent (see
   * `reopenAfterOtherChanges`), instead of as a change.
   */
  constructor(channel: DocumentChannel, languageOf: (path: string) => string, maxOpen: number, reopen = false) {
    this.#channel = channel;
    this.#languageOf = languageOf;
    this.#maxOpen = maxOpen;
    this.#reopen = reopen;
  }

  get(path: string): OpenDocument | undefined {
    return this.#open.get(path);
  }

  /** Every open document. */
  all(): OpenDocument[] {
    return [...this.#open.values()];
  }

  /**
   * Reads the file and tells the server what changed: open it, send its new content, or close it when it is
   * gone. `created` adds a watched-file event first, so the server's project picks up the new file.
   */
  sync(path: string, options: { created?: boolean; refresh?: boolean } = {}): SyncResult {
    const doc = this.#open.get(path);
    let text: string;
    let stat: { mtimeMs: number; size: number };
    try {
      stat = statSync(path);
      text = readRegularFileSync(path).toString('utf8');
    } catch {
      // stat and the regular-file read raise only file-system errors and not_regular_file: the file is gone or unreadable.
      if (doc) {
        this.#open.delete(path);
        this.#channel.close(doc);
      }
      this.#channel.watched([{ uri: toUri(path), type: FileChangeType.Deleted }]);
      this.#changes++;
      return { doc: undefined, changed: true };
    }
    if (doc) {
      doc.lastUsed = Date.now();
      doc.mtimeMs = stat.mtimeMs;
      doc.size = stat.size;
      const othersChanged = this.#changes > (this.#stamps.get(path) ?? 0);
      // `refresh`: a file whose own text is the same but which depends on files changed since it was sent gets a
      // new version, so what a push server publishes about it afterwards can be told from what it published before.
      if (doc.text === text && !(options.refresh && othersChanged)) return { doc, changed: false };
      doc.text = text;
      doc.version = this.#nextVersion(path);
      doc.syncSeq = this.#channel.seq();
      if (this.#reopen && othersChanged) {
        this.#channel.close(doc);
        this.#channel.open(doc);
      } else {
        this.#channel.change(doc);
        this.#channel.save(doc);
      }
      this.#stamps.set(path, ++this.#changes);
      return { doc, changed: true };
    }
    if (options.created) this.#channel.watched([{ uri: toUri(path), type: FileChangeType.Created }]);
    const opened: OpenDocument = {
      path,
      uri: toUri(path),
      languageId: this.#languageOf(path),
      version: this.#nextVersion(path),
      text,
      mtimeMs: stat.mtimeMs,
      size: stat.size,
      syncSeq: this.#channel.seq(),
      lastUsed: Date.now(),
    };
    this.#open.set(path, opened);
    this.#channel.open(opened);
    this.#stamps.set(path, ++this.#changes);
    this.#evict();
    return { doc: opened, changed: true };
  }

  /**
   * Re-syncs open documents whose file changed on disk since they were sent (written by another tool), so
   * answers are about what is on disk now. Cheap: one stat per open document.
   */
  refreshStale(): void {
    for (const doc of [...this.#open.values()]) {
      let stat: { mtimeMs: number; size: number } | undefined;
      try {
        stat = statSync(doc.path);
      } catch {
        // stat raises only file-system errors: the document's file is gone.
        stat = undefined;
      }
      if (!stat || stat.mtimeMs !== doc.mtimeMs || stat.size !== doc.size) this.sync(doc.path);
    }
  }

  /** Sends watched-file events (files changed on disk that the server has not opened). */
  watched(events: readonly FileEvent[]): void {
    if (events.length === 0) return;
    this.#channel.watched(events);
    this.#changes++;
  }

  /** Forgets every document without notifying (the server is gone). */
  clear(): void {
    this.#open.clear();
    this.#stamps.clear();
  }

  #nextVersion(path: string): number {
    const next = (this.#versions.get(path) ?? 0) + 1;
    this.#versions.set(path, next);
    return next;
  }

  #evict(): void {
    if (this.#open.size <= this.#maxOpen) return;
    const byAge = [...this.#open.values()].sort((a, b) => a.lastUsed - b.lastUsed);
    for (const doc of byAge.slice(0, this.#open.size - this.#maxOpen)) {
      this.#open.delete(doc.path);
      this.#stamps.delete(doc.path);
      this.#channel.close(doc);
    }
  }
}
