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
  /** Per file, the first status the server sent since the file's latest publish. */
  readonly #firstStatus = new Map<string, { idle: boolean; seq: number }>();
  #statusSeen = false;
  readonly #max: number;
  #seq = 0;
  readonly #wakeups = new Wakeups();

  constructor(maxFiles = 5000) {
    this.#max = maxFiles;
  }

  /** The sequence number of the latest publish (0 before any). */
  get seq(): number {
    return this.#seq;
  }

  record(path: string, version: number | undefined, diagnostics: readonly LspDiagnostic[]): void {
    this.#entries.delete(path);
    this.#entries.set(path, { version, diagnostics, seq: ++this.#seq });
    this.#firstStatus.delete(path);
    while (this.#entries.size > this.#max) {
      this.#entries.delete(this.#entries.keys().next().value as string);
    }
    this.poke();
  }

  get(path: string): Published | undefined {
    return this.#entries.get(path);
  }

  /** Records what the server says it is doing with a file (clangd's file status): whether it is done with it. */
  status(path: string, idle: boolean): void {
    this.#statusSeen = true;
    // Only the first word after the file's latest publish matters: idle, or already rebuilding.
    if (!this.#firstStatus.has(path)) {
      this.#firstStatus.set(path, { idle, seq: ++this.#seq });
      while (this.#firstStatus.size > this.#max) this.#firstStatus.delete(this.#firstStatus.keys().next().value as string);
    }
    this.poke();
  }

  /**
   * Whether a publish is the server's last word on its version: always, for a server that reports no file status;
   * otherwise once the first status after the publish says the file is idle. clangd, when a header changed, publishes
   * from its old preamble and at once says it is parsing includes again; the publish after that is the real one.
   */
  final(path: string, publish: Published): boolean {
    if (!this.#statusSeen) return true;
    const first = this.#firstStatus.get(path);
    return first !== undefined && first.idle && first.seq > publish.seq;
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
    return entry.seq > syncSeq ? entry : undefined;
  }

  /**
   * A server that does not say which version it checked may publish in several passes (syntax first, then
   * semantics): waits until the file's diagnostics stay unchanged for `quietMs`, and returns the last ones.
   */
  async quiet(path: string, quietMs: number, deadline: number, signal?: AbortSignal): Promise<readonly LspDiagnostic[]> {
    for (;;) {
      const seen = this.#entries.get(path)?.seq;
      const until = Math.min(deadline, Date.now() + quietMs);
      while (Date.now() < until && this.#entries.get(path)?.seq === seen && !signal?.aborted) await this.next(until, signal);
      if (this.#entries.get(path)?.seq === seen || Date.now() >= deadline || signal?.aborted) {
        return this.#entries.get(path)?.diagnostics ?? [];
      }
    }
  }
}
