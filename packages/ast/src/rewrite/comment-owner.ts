import type { CaptureRecord, MatchRecord } from '../match/find.js';

/** A capture widened to the comments that belong to it. */
export interface Region {
  readonly start: number;
  readonly end: number;
  readonly text: string;
}

/**
 * The region each capture owns: the capture, plus the comments that lie between it and the pattern's code next
 * to it. A comment whose next code is a capture's first node leads that capture (Go's comment in front of the
 * first statement of a `$$$BODY`; C's `if ($P == NULL) // why` before `$S`); otherwise one whose previous code
 * is a capture's last node trails it. Such comments travel with the capture into the rewrite.
 */
export function captureRegions(match: MatchRecord, source: string): Map<string, Region> {
  const captures = Object.entries(match.captures).filter(([, c]) => c.text !== '');
  const regions = new Map<string, { start: number; end: number }>(captures.map(([name, c]) => [name, { start: c.start, end: c.end }]));
  const comments = (match.comments ?? []).filter((c) => !captures.some(([, cap]) => cap.start <= c.start && c.end <= cap.end));
  if (comments.length === 0) return finish(regions, source);
  /** The next code after `offset`, past whitespace and comments. */
  const nextCode = (offset: number): number => {
    let i = offset;
    for (;;) {
      while (i < match.end && /\s/.test(source[i] as string)) i++;
      const c = comments.find((k) => k.start === i);
      if (!c) return i;
      i = c.end;
    }
  };
  const previousCode = (offset: number): number => {
    let i = offset;
    for (;;) {
      while (i > match.start && /\s/.test(source[i - 1] as string)) i--;
      const c = comments.find((k) => k.end === i);
      if (!c) return i;
      i = c.start;
    }
  };
  for (const comment of comments) {
    const next = nextCode(comment.end);
    const leads = captures.find(([, c]) => c.start === next);
    const trails = leads ? undefined : captures.find(([, c]) => c.end === previousCode(comment.start));
    const owner = (leads ?? trails)?.[0];
    if (owner === undefined) continue;
    const region = regions.get(owner) as { start: number; end: number };
    region.start = Math.min(region.start, comment.start);
    region.end = Math.max(region.end, comment.end);
  }
  return finish(regions, source);
}

function finish(regions: Map<string, { start: number; end: number }>, source: string): Map<string, Region> {
  return new Map([...regions].map(([name, r]) => [name, { ...r, text: source.slice(r.start, r.end) }]));
}

/** A capture with its region's span and text (its items unchanged). */
export function widened(capture: CaptureRecord, region: Region | undefined): CaptureRecord {
  if (!region || (region.start === capture.start && region.end === capture.end)) return capture;
  return { ...capture, start: region.start, end: region.end, text: region.text };
}
