/**
 * Where a search puts the matches of one file: every match is counted, and only those an answer can use get a
 * record. Matches come in document order, outer before inner.
 *
 * A search keeps the first `keep` records (an answer shows the matches from `offset` to `offset + max_results`, so a
 * file's later ones are never shown). An edit (`outermost`) records only the matches that are not inside an earlier
 * one: the rewrite replaces the outermost of nested matches and leaves the rest, so those are only counted (and an
 * edit's `keep` tells it that there are more than it stages).
 * Either way the records of a file stay bounded whatever the file holds (every node of a million statements for
 * `$A`, every level of 50,000 nested arrays for `[$$$A]`).
 * @internal
 */
export class MatchSink<R extends { readonly end: number }> {
  readonly records: R[] = [];
  /** Every match, recorded or not. */
  count = 0;
  /** Matches inside an earlier recorded one, not recorded (edits only). */
  nested = 0;
  readonly #keep: number;
  readonly #outermost: boolean;
  /** Where the last outermost match ends (edits). */
  #end = -1;

  constructor(options: { readonly keep?: number; readonly outermost?: boolean } = {}) {
    this.#keep = options.keep ?? Number.POSITIVE_INFINITY;
    this.#outermost = options.outermost ?? false;
  }

  /**
   * Counts a match of `[start, end)` and says whether it gets a record (then the caller {@link add}s it). Nested is
   * what the edit's `outermost` (staging/propose.ts) calls so: starting before the last outermost match ends (an
   * empty match at its very end is recorded, and left to that function).
   */
  wants(start: number, end: number): boolean {
    this.count++;
    if (this.#outermost) {
      if (start < this.#end) {
        this.nested++;
        return false;
      }
      // Recorded or not, what is inside it is nested: `count - nested` is how many outermost matches there are.
      this.#end = end;
    }
    return this.records.length < this.#keep;
  }

  add(record: R): void {
    this.records.push(record);
  }
}
