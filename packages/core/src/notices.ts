import { capText } from './caps.js';

/** Something that happened in the background of a run, for the model to read on its next tool result. */
export interface Notice {
  /** What the model reads, one or a few lines. */
  readonly text: string;
  /**
   * The heading the notice appears under; notices with the same heading are grouped beneath one copy of it
   * (`Late diagnostics from an earlier write:`). Without one the notice stands alone.
   */
  readonly heading?: string;
  /** Who posted it (`@agent-tools/vibe`), so a poster can take or count only its own. */
  readonly source?: string;
  /**
   * Names the event, so its poster can {@link RunNotices.withdraw} it once the model has learnt of it another way
   * (the worker's result came back in the answer it asked for). A second post with a pending key replaces the first.
   */
  readonly key?: string;
}

/** Bounds of a {@link RunNotices} board. */
export interface NoticeLimits {
  /** Notices kept while nobody takes them; the oldest go first, and the next delivery says how many (default 50). */
  readonly maxPending?: number;
  /** Characters of one notice's text (default 8,000). */
  readonly maxChars?: number;
}

/**
 * The notices of one run waiting for the model: what the registry appends once to the next tool result, whichever
 * tool it is, the way late diagnostics are. Packages post to it when something they started in the background
 * ends (a worker finished, diagnostics arrived late); a harness may also {@link take} notices itself, to show them
 * when the model's turn ends without a further tool call.
 */
export class RunNotices {
  readonly #pending: Notice[] = [];
  readonly #maxPending: number;
  readonly #maxChars: number;
  readonly #dropped = new Map<string | undefined, number>();
  #closed = false;

  constructor(limits: NoticeLimits = {}) {
    this.#maxPending = Math.max(1, limits.maxPending ?? 50);
    this.#maxChars = limits.maxChars ?? 8000;
  }

  /** How many notices wait (of one source, when given). */
  pending(source?: string): number {
    return this.#pending.filter((notice) => source === undefined || notice.source === source).length;
  }

  /** Posts a notice for the next result. Ignored once the board is disposed. */
  post(notice: Notice): void {
    if (this.#closed || !notice.text.trim()) return;
    if (notice.key !== undefined) this.withdraw(notice.key);
    this.#pending.push({ ...notice, text: capText(notice.text.trim(), this.#maxChars) });
    while (this.#pending.length > this.#maxPending) {
      const oldest = this.#pending.shift() as Notice;
      this.#dropped.set(oldest.source, (this.#dropped.get(oldest.source) ?? 0) + 1);
    }
  }

  /** Removes a pending notice by key; true when one was waiting. */
  withdraw(key: string): boolean {
    const index = this.#pending.findIndex((notice) => notice.key === key);
    if (index === -1) return false;
    this.#pending.splice(index, 1);
    return true;
  }

  /** Takes the waiting notices (only one source's, when given), oldest first; each is delivered once. */
  takeNotices(source?: string): Notice[] {
    const taken: Notice[] = [];
    for (let i = 0; i < this.#pending.length; ) {
      const notice = this.#pending[i] as Notice;
      if (source === undefined || notice.source === source) {
        taken.push(notice);
        this.#pending.splice(i, 1);
      } else {
        i++;
      }
    }
    return taken;
  }

  /**
   * Takes the waiting notices as the text appended to a result: grouped under their headings in the order the
   * groups began, '' when none wait. Says how many were dropped for want of room since the last delivery.
   */
  take(source?: string): string {
    const notices = this.takeNotices(source);
    const dropped = this.#takeDropped(source);
    if (notices.length === 0 && dropped === 0) return '';
    // Each block is a lone notice, or a heading with its notices, placed where its first notice was posted.
    const blocks: string[][] = [];
    const groups = new Map<string, string[]>();
    for (const notice of notices) {
      if (notice.heading === undefined) {
        blocks.push([notice.text]);
        continue;
      }
      let group = groups.get(notice.heading);
      if (!group) {
        group = [notice.heading];
        groups.set(notice.heading, group);
        blocks.push(group);
      }
      group.push(notice.text);
    }
    const text = blocks.map((block) => block.join('\n'));
    if (dropped > 0) text.unshift(`(${dropped} earlier ${dropped === 1 ? 'notice was' : 'notices were'} dropped: too many waited.)`);
    return text.join('\n');
  }

  /** Drops every waiting notice and ignores later posts (the run has ended). */
  dispose(): void {
    this.#closed = true;
    this.#pending.length = 0;
    this.#dropped.clear();
  }

  #takeDropped(source: string | undefined): number {
    if (source !== undefined) {
      const count = this.#dropped.get(source) ?? 0;
      this.#dropped.delete(source);
      return count;
    }
    const total = [...this.#dropped.values()].reduce((a, b) => a + b, 0);
    this.#dropped.clear();
    return total;
  }
}
