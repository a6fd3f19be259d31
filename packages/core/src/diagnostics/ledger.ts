import type { Diagnostic } from './diagnostic.js';

/** Bounds of a {@link DiagnosticsLedger}. */
export interface LedgerLimits {
  /** Files remembered; the least recently updated is forgotten first. */
  readonly maxFiles?: number;
  /** Distinct messages remembered per file. */
  readonly maxKeysPerFile?: number;
}

interface Entry {
  count: number;
  lines: number[];
}

/**
 * Which diagnostics of a file the run has already reported.
 *
 * Keyed by severity, code and message, never by position: a message that only moved is not new. Occurrences
 * are counted per file, so a second copy of a known message is new, and a message that was fixed (absent from
 * one snapshot) and later comes back is new again.
 */
export class DiagnosticsLedger {
  readonly #files = new Map<string, Map<string, Entry>>();
  readonly #maxFiles: number;
  readonly #maxKeys: number;

  constructor(limits: LedgerLimits = {}) {
    this.#maxFiles = limits.maxFiles ?? 1000;
    this.#maxKeys = limits.maxKeysPerFile ?? 2000;
  }

  /** Whether the file has a recorded snapshot. */
  has(file: string): boolean {
    return this.#files.has(file);
  }

  /** How many files are remembered. */
  get size(): number {
    return this.#files.size;
  }

  /**
   * Records the file's current diagnostics and returns the ones that are new against the previous snapshot,
   * ordered by line. With no previous snapshot every diagnostic is new.
   *
   * `keep` makes the snapshot partial: the remembered diagnostics of the sources it accepts stay as they were
   * (unless the snapshot has the same message), because their checker did not answer this time. Without it, a
   * checker that answers late would find its old findings forgotten and report them as new.
   */
  update(file: string, diagnostics: readonly Diagnostic[], keep?: (source: string) => boolean): Diagnostic[] {
    const previous = this.#files.get(file);
    const groups = new Map<string, Diagnostic[]>();
    for (const diagnostic of diagnostics) {
      const key = ledgerKey(diagnostic);
      const group = groups.get(key);
      if (group) group.push(diagnostic);
      else groups.set(key, [diagnostic]);
    }

    const fresh: Diagnostic[] = [];
    const next = new Map<string, Entry>();
    for (const [key, group] of groups) {
      group.sort((a, b) => a.line - b.line);
      const known = previous?.get(key);
      const extra = group.length - (known?.count ?? 0);
      if (extra > 0) fresh.push(...pickNew(group, known?.lines ?? [], extra));
      if (next.size < this.#maxKeys) next.set(key, { count: group.length, lines: group.map((d) => d.line) });
    }
    if (keep && previous) {
      for (const [key, entry] of previous) {
        if (!next.has(key) && next.size < this.#maxKeys && keep(sourceOf(key))) next.set(key, entry);
      }
    }

    // Re-inserting moves the file to the young end of the map, which is what the eviction reads.
    this.#files.delete(file);
    this.#files.set(file, next);
    while (this.#files.size > this.#maxFiles) {
      const oldest = this.#files.keys().next().value as string;
      this.#files.delete(oldest);
    }
    return fresh.sort((a, b) => a.line - b.line || (a.column ?? 0) - (b.column ?? 0));
  }

  /**
   * Rewrites the messages of every remembered diagnostic (of every file, or of `files`), merging those that become
   * the same.
   * A rename changes the text of old messages that name the symbol; compared under their old text, they would
   * read as new.
   */
  rewriteMessages(rewrite: (message: string) => string, files?: readonly string[]): void {
    const only = files ? new Set(files) : undefined;
    for (const [file, entries] of this.#files) {
      if (only && !only.has(file)) continue;
      const next = new Map<string, Entry>();
      for (const [key, entry] of entries) {
        const [source, severity, code, ...message] = key.split('\u0000');
        const rewritten = `${source}\u0000${severity}\u0000${code}\u0000${rewrite(message.join('\u0000'))}`;
        const seen = next.get(rewritten);
        next.set(rewritten, seen ? { count: seen.count + entry.count, lines: [...seen.lines, ...entry.lines] } : entry);
      }
      this.#files.set(file, next);
    }
  }

  /** Forgets a file, so its next snapshot is compared with nothing. */
  forget(file: string): void {
    this.#files.delete(file);
  }

  /** Forgets everything. */
  clear(): void {
    this.#files.clear();
  }
}

/** The identity of a diagnostic in the ledger: severity, code and message, deliberately without position. */
export function ledgerKey(diagnostic: Diagnostic): string {
  // The source is part of the key: ESLint's and tsserver's findings on one file are remembered apart.
  return `${diagnostic.source ?? ''}\u0000${diagnostic.severity}\u0000${diagnostic.code ?? ''}\u0000${diagnostic.message}`;
}

/** The source part of a {@link ledgerKey}. */
function sourceOf(key: string): string {
  return key.slice(0, key.indexOf('\u0000'));
}

/**
 * Chooses which copies of a repeated message to report as new: the ones on lines that held no copy before,
 * then the last ones. Identical messages cannot be told apart otherwise.
 */
function pickNew(group: readonly Diagnostic[], knownLines: readonly number[], extra: number): Diagnostic[] {
  const known = new Set(knownLines);
  const unseen = group.filter((d) => !known.has(d.line));
  if (unseen.length >= extra) return unseen.slice(0, extra);
  const rest = group.filter((d) => known.has(d.line));
  return [...unseen, ...rest.slice(rest.length - (extra - unseen.length))];
}
