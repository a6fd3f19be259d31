import type { DebugProtocol } from '@vscode/debugprotocol';

/** One requested breakpoint and what the adapter made of it. */
export interface BreakpointEntry {
  /** The line the model asked for (1-based). */
  readonly line: number;
  /**
   * `pending`: not sent yet (no session); `verified`: the adapter bound it to code; `unverified`: the adapter
   * could not bind it (yet), and `message` may say why.
   */
  state: 'pending' | 'verified' | 'unverified';
  /** Where the adapter actually placed it, when that differs from `line`. */
  actualLine?: number;
  message?: string;
  id?: number;
}

/**
 * The breakpoints of one conversation, by absolute file path. They outlive sessions (set them before
 * `launch`; they are sent again at the next launch) and record what the adapter verified.
 */
export class BreakpointBook {
  readonly #files = new Map<string, BreakpointEntry[]>();

  /** Replaces the breakpoints of `file`; an empty list clears it. Returns the new entries. */
  set(file: string, lines: readonly number[]): BreakpointEntry[] {
    const unique = [...new Set(lines)].sort((a, b) => a - b);
    if (unique.length === 0) {
      this.#files.delete(file);
      return [];
    }
    const entries = unique.map((line): BreakpointEntry => ({ line, state: 'pending' }));
    this.#files.set(file, entries);
    return entries;
  }

  /** The entries of one file. */
  get(file: string): readonly BreakpointEntry[] {
    return this.#files.get(file) ?? [];
  }

  /** Every file with breakpoints, in the order they were first set. */
  files(): [string, readonly BreakpointEntry[]][] {
    return [...this.#files.entries()];
  }

  /** How many breakpoints there are in all. */
  get size(): number {
    let count = 0;
    for (const entries of this.#files.values()) count += entries.length;
    return count;
  }

  /** Records a `setBreakpoints` answer: the adapter answers in request order. */
  apply(file: string, answered: readonly DebugProtocol.Breakpoint[]): void {
    const entries = this.#files.get(file);
    if (!entries) return;
    entries.forEach((entry, index) => {
      const bp = answered[index];
      if (!bp) {
        entry.state = 'unverified';
        entry.message = 'the adapter did not answer for this breakpoint';
        return;
      }
      record(entry, bp);
    });
  }

  /** Records a `breakpoint` event (an adapter verifying a breakpoint later, when its code loads). */
  update(bp: DebugProtocol.Breakpoint): void {
    if (bp.id === undefined) return;
    for (const entries of this.#files.values()) {
      const entry = entries.find((e) => e.id === bp.id);
      if (entry) {
        record(entry, bp);
        return;
      }
    }
  }

  /** Marks every breakpoint pending again (the session ended). */
  reset(): void {
    for (const entries of this.#files.values()) {
      for (const entry of entries) {
        entry.state = 'pending';
        delete entry.actualLine;
        delete entry.message;
        delete entry.id;
      }
    }
  }
}

function record(entry: BreakpointEntry, bp: DebugProtocol.Breakpoint): void {
  entry.state = bp.verified ? 'verified' : 'unverified';
  if (bp.id !== undefined) entry.id = bp.id;
  if (bp.line !== undefined && bp.line !== entry.line) entry.actualLine = bp.line;
  else delete entry.actualLine;
  if (bp.message) entry.message = bp.message;
  else delete entry.message;
}
