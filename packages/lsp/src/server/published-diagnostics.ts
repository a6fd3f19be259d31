import type { Diagnostic as LspDiagnostic } from 'vscode-languageserver-protocol';
import { Wakeups } from '../util/wakeups.js';

/** One `textDocument/publishDiagnostics` as recorded. */
export interface Published {
  /** The document version the server said it checked, when it says. */
  readonly version: number | undefined;
  readonly diagnostics: readonly LspDiagnostic[];
  /** Order of arrival across all files of the server. */
  readonly seq: number;
}

/**
 * The latest pushed diagnostics per file, bounded, with a way to wait for the next event (a publish, or a
 * change of the server's registrations that may switch it to pull diagnostics).
 */
export class PublishedDiagnostics {
  readonly #entries = new Map<string, Published>();
  readonly #max: number;
  #seq = 0;
  /** Files the server has published a version for: an unversioned publish of one of them is no answer. */
  readonly #versioned = new Set<string>();
  readonly #wakeups = new Wakeups();

  constructor(maxFiles = 5000) {
    this.#max = maxFiles;
  }

  /** The sequence number of the latest publish (0 before any). */
  get seq(): number {
    return this.#seq;
  }

  record(path: string, version: number | undefined, diagnostics: readonly LspDiagnostic[]): void {
    if (version !== undefined && this.#versioned.size < this.#max) this.#versioned.add(path);
    this.#entries.delete(path);
    this.#entries.set(path, { version, diagnostics, seq: ++this.#seq });
    while (this.#entries.size > this.#max) {
      this.#entries.delete(this.#entries.keys().next().value as string);
    }
    this.poke();
  }

  get(path: string): Published | undefined {
    return this.#entries.get(path);
  }

  /** Wakes every waiter (a registration changed, the server exited). */
  poke(): void {
    this.#wakeups.wakeAll();
  }

  /** Resolves at the next event, at `deadline` (epoch ms), or when the signal aborts, whichever is first. */
  next(deadline: number, signal?: AbortSignal): Promise<void> {
    return this.#wakeups.next(deadline, signal);
  }

  /**
   * The publish that answers a document's current version: one reporting that version (or newer), or, from a
   * server that reports no versions, the first one since the version was sent (`syncSeq`).
   */
  settled(path: string, version: number, syncSeq: number): Published | undefined {
    const entry = this.#entries.get(path);
    if (!entry) return undefined;
    if (entry.version !== undefined) return entry.version >= version ? entry : undefined;
    // clangd clears a closed file's diagnostics with an unversioned empty publish; reopened (after a header
    // changed), that clearing must not pass for the new version's answer. (gopls publishes some files, such as
    // ones a build tag leaves out, without versions only: those still count.)
    if (this.#versioned.has(path)) return undefined;
    return entry.seq > syncSeq ? entry : undefined;
  }

  /**
   * A server that does not say which version it checked may publish in several passes (syntax first, then
   * semantics): waits until the file's diagnostics stay unchanged for `quietMs`, and returns the last ones. A publish
   * that does name `version` (or a newer one) is the answer at once: gopls answers a file's first open with an
   * unversioned type check, then a versioned publish with its analyzers' findings (vet) when they are done.
   */
  async quiet(path: string, version: number, quietMs: number, deadline: number, signal?: AbortSignal): Promise<readonly LspDiagnostic[]> {
    const versioned = (): boolean => {
      const entry = this.#entries.get(path);
      return entry?.version !== undefined && entry.version >= version;
    };
    for (;;) {
      const seen = this.#entries.get(path)?.seq;
      const until = Math.min(deadline, Date.now() + quietMs);
      while (Date.now() < until && this.#entries.get(path)?.seq === seen && !signal?.aborted) await this.next(until, signal);
      if (versioned() || this.#entries.get(path)?.seq === seen || Date.now() >= deadline || signal?.aborted) {
        return this.#entries.get(path)?.diagnostics ?? [];
      }
    }
  }
}
