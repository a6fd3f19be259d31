/**
 * How every package words counts and durations in what a model reads: one rule each, so that "3 matches",
 * "1 min 5 s" and "50 of 212" read the same whichever tool wrote them. Cutting long text is `capText` (caps.ts).
 */

/**
 * A duration as a person reads it: "150 ms", "45 s", "75 s", "10 min", "2 min 5 s", "1 h 5 min". Seconds up to a
 * minute and a half, as people say "75 seconds" rather than "1 minute 15". With `precision` 's', never milliseconds.
 */
export function formatDuration(ms: number, precision: 'ms' | 's' = 'ms'): string {
  // A clock that counts whole seconds (a running cell) says "0 s" at its start, not "0 ms".
  if (ms < 1000 && precision === 'ms') return `${Math.max(0, Math.round(ms))} ms`;
  const seconds = Math.round(ms / 1000);
  if (seconds < 90) return `${seconds} s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return seconds % 60 ? `${minutes} min ${seconds % 60} s` : `${minutes} min`;
  const hours = Math.floor(minutes / 60);
  return minutes % 60 ? `${hours} h ${minutes % 60} min` : `${hours} h`;
}

/**
 * A time limit as it was set, or a short wait as it was measured: "700 ms", "1.5 s", "20 s", then as
 * {@link formatDuration}. Below 10 s a tenth of a second is kept, where rounding would misstate the limit.
 */
export function formatLimit(ms: number): string {
  if (ms < 1000) return `${Math.max(0, Math.round(ms))} ms`;
  if (ms < 10_000) return `${Math.round(ms / 100) / 10} s`;
  return formatDuration(ms);
}

/** The noun for a count: `file`/`files`, `match`/`matches`; an irregular one passes its plural. */
export function nounFor(count: number, noun: string, pluralNoun = regularPlural(noun)): string {
  return count === 1 ? noun : pluralNoun;
}

/** A count and its noun: "1 file", "3 files", "2 matches", `plural(2, 'child', 'children')`. */
export function plural(count: number, noun: string, pluralNoun?: string): string {
  return `${count} ${nounFor(count, noun, pluralNoun)}`;
}

/** Part of a whole: "50 of 212", "51-100 of 212", or "50 of 212 files" with a noun. */
export function countOfTotal(count: number | string, total: number, noun?: string): string {
  return noun === undefined ? `${count} of ${total}` : `${count} of ${total} ${nounFor(total, noun)}`;
}

function regularPlural(noun: string): string {
  return /(?:ch|sh|s|x|z)$/.test(noun) ? `${noun}es` : `${noun}s`;
}

/** What part of a list a page shows: '' for all of it, "50 of 212 shown", "51-100 of 212 shown" past the start. */
export function shownNote(offset: number, count: number, total: number): string {
  if (offset === 0 && count === total) return '';
  const part = offset === 0 ? `${count}` : `${offset + 1}-${offset + count}`;
  return `${countOfTotal(part, total)} shown`;
}
