import type { MatchRecord, UnnamedCode } from '../match/find.js';

/** Separators whose loss changes nothing (a trailing `,` before a closing bracket the pattern names). */
const SEPARATORS = /^[,;\s]*$/;

/**
 * The unnamed code inside a match that a rewrite would delete: every part the pattern does not name, less
 * separators and tokens the template writes anyway (`async` when the template says `async function`).
 */
export function lostCode(match: MatchRecord, template: string): UnnamedCode[] {
  return (match.unnamed ?? []).filter((part) => !SEPARATORS.test(part.text) && !writes(template, part.text));
}

function writes(template: string, text: string): boolean {
  const escaped = text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(`(?:^|[^\\p{L}\\p{N}_])${escaped}(?![\\p{L}\\p{N}_])`, 'u').test(template);
}

/** The match cut where the part its pattern names ends: the unnamed code after that is kept as it is. */
export function namedPart(match: MatchRecord, source: string): MatchRecord {
  const tail = match.tail;
  if (tail === undefined || tail >= match.end) return match;
  const before = source.slice(match.start, tail);
  const lines = before.split('\n');
  return {
    ...match,
    end: tail,
    endRow: match.startRow + lines.length - 1,
    endColumn: lines.length === 1 ? match.startColumn + before.length : (lines[lines.length - 1] as string).length,
    text: before,
    // A comment in the kept end stays there: it is no capture's to carry into the replacement too (`return b'' #
    // eof` rendered `return log(b'' # eof) # eof`).
    ...(match.comments ? { comments: match.comments.filter((c) => c.end <= tail) } : {}),
  };
}
