/**
 * The line ranges a unified diff changes, per file, in the original file's numbering (`12-14`, or `12` for one
 * line; a pure insertion is named by the line it follows, `after 12`).
 */
export function changedRanges(diff: string): { file: string; ranges: string[] }[] {
  const out: { file: string; ranges: string[] }[] = [];
  let current: { file: string; ranges: string[] } | undefined;
  let old = 0;
  let run: { from: number; to: number; removed: boolean } | undefined;
  const close = (): void => {
    if (!run || !current) return;
    const { from, to, removed } = run;
    current.ranges.push(!removed ? `after ${from - 1}` : from === to ? `${from}` : `${from}-${to}`);
    run = undefined;
  };
  for (const line of diff.split('\n')) {
    if (line.startsWith('--- a/')) {
      close();
      current = { file: line.slice(6), ranges: [] };
      out.push(current);
      continue;
    }
    if (line.startsWith('+++ ')) continue;
    const hunk = /^@@ -(\d+)(?:,\d+)? /.exec(line);
    if (hunk) {
      close();
      old = Number(hunk[1]);
      // `-0,0`: an insertion at the top; `-12,0`: after line 12.
      if (/^@@ -\d+,0 /.test(line)) old++;
      continue;
    }
    if (line.startsWith('-')) {
      if (!run) run = { from: old, to: old, removed: true };
      else if (!run.removed) run = { from: run.from, to: old, removed: true };
      else run.to = old;
      old++;
    } else if (line.startsWith('+')) {
      if (!run) run = { from: old, to: old - 1, removed: false };
    } else if (line.startsWith(' ')) {
      close();
      old++;
    }
  }
  close();
  return out;
}

/** Ranges named per file in an answer before the rest is counted. */
const MAX_SHOWN_RANGES = 30;

/** `file: 3, 10-12, after 40` for an answer, the ranges past the first 30 counted. */
export function shownRanges(entry: { readonly file: string; readonly ranges: readonly string[] }): string {
  const shown = entry.ranges.slice(0, MAX_SHOWN_RANGES).join(', ');
  const more = entry.ranges.length - MAX_SHOWN_RANGES;
  return `${entry.file}: ${shown}${more > 0 ? ` and ${more} more` : ''}`;
}
