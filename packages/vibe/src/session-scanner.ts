/** What a session id read from output may look like: one word, not starting with "-" (UUIDs, slugs, numbers). */
const SESSION_ID = /^[A-Za-z0-9_][A-Za-z0-9_.:@+=-]{0,255}$/;

/** How much of each stream is searched for the session id: agents announce it early, and output can be endless. */
const SCAN_LIMIT = 64 * 1024;

/**
 * Finds an agent's session id in what it prints: the first capture group of the first match of `pattern`, in
 * standard output or standard error, reported once (and not at all when it is not one safe word, see SESSION_ID). Chunks are joined per stream, so an id split across two reads
 * is still found; only the first 64 KiB of each stream are searched.
 */
export class SessionScanner {
  readonly #pattern: RegExp;
  readonly #found: (id: string) => void;
  readonly #seen = { stdout: '', stderr: '' };
  #done = false;

  constructor(pattern: RegExp, found: (id: string) => void) {
    // A global or sticky pattern would carry lastIndex between searches.
    this.#pattern = new RegExp(pattern.source, pattern.flags.replace(/[gy]/g, ''));
    this.#found = found;
  }

  push(stream: 'stdout' | 'stderr', chunk: string): void {
    if (this.#done || this.#seen[stream].length >= SCAN_LIMIT) return;
    const text = (this.#seen[stream] + chunk).slice(0, SCAN_LIMIT);
    this.#seen[stream] = text;
    const id = this.#pattern.exec(text)?.[1]?.trim();
    if (!id) return;
    this.#done = true;
    // The id becomes an argument of the resume command: one the agent would read as an option (or that is not one
    // word) is not a session id, whatever the pattern matched; the worker then restarts instead of resuming.
    if (SESSION_ID.test(id)) this.#found(id);
  }
}
