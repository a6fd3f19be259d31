import { capText } from '@agent-tools/core/internal';

/** Lines of context around each change, as `diff -u` shows. */
const CONTEXT = 3;

/**
 * Cells of Myers' trace (one per diagonal per edit step) a diff may fill: 16 Mi (64 MB). Its cost is the lines times
 * the changes, so a rewrite of a million one-line statements would take terabytes; past the budget the changed
 * middle is diffed line against line (see {@link plainDiff}).
 */
const TRACE_BUDGET = 16 * 1024 * 1024;

/** Characters of one diff line an answer shows. */
const MAX_SHOWN_LINE = 500;

/** A diff line as an answer shows it: a line of a minified file is cut, saying how much is left out. */
export function shownDiffLine(line: string): string {
  return capText(line, MAX_SHOWN_LINE);
}

type Op = { readonly kind: ' ' | '-' | '+'; readonly line: string };

/**
 * A unified diff of two texts (`--- a/file` / `+++ b/file` headers, hunks with three lines of context), or
 * `''` when they are equal. Lines are compared exactly; a missing final newline is marked as `diff` does.
 */
export function unifiedDiff(file: string, before: string, after: string): string {
  if (before === after) return '';
  const a = splitLines(before);
  const b = splitLines(after);
  const ops = diffLines(a, b);
  const hunks: string[] = [];
  let i = 0;
  // Line numbers before ops[counted], carried from hunk to hunk (counting from the top for each hunk was quadratic).
  let counted = 0;
  let oldStart = 1;
  let newStart = 1;
  while (i < ops.length) {
    // Find the next change.
    while (i < ops.length && ops[i]?.kind === ' ') i++;
    if (i >= ops.length) break;
    let start = Math.max(0, i - CONTEXT);
    while (start > 0 && ops[start - 1]?.kind !== ' ') start--;
    // Extend while changes are within 2 * CONTEXT lines of each other.
    let end = i;
    for (;;) {
      while (end < ops.length && ops[end]?.kind !== ' ') end++;
      let gap = end;
      while (gap < ops.length && ops[gap]?.kind === ' ') gap++;
      if (gap < ops.length && gap - end <= 2 * CONTEXT) {
        end = gap;
        continue;
      }
      break;
    }
    const stop = Math.min(ops.length, end + CONTEXT);
    for (; counted < start; counted++) {
      if (ops[counted]?.kind !== '+') oldStart++;
      if (ops[counted]?.kind !== '-') newStart++;
    }
    let oldCount = 0;
    let newCount = 0;
    const body: string[] = [];
    for (let k = start; k < stop; k++) {
      const op = ops[k] as Op;
      if (op.kind !== '+') oldCount++;
      if (op.kind !== '-') newCount++;
      body.push(op.kind + op.line);
    }
    hunks.push(`@@ -${range(oldStart, oldCount)} +${range(newStart, newCount)} @@`);
    // One by one: a hunk may hold a million lines, too many to spread as arguments.
    for (const line of body) hunks.push(line);
    i = stop;
  }
  return [`--- a/${file}`, `+++ b/${file}`, ...hunks].join('\n');
}

function range(start: number, count: number): string {
  if (count === 0) return `${start - 1},0`;
  return count === 1 ? `${start}` : `${start},${count}`;
}

function splitLines(text: string): string[] {
  if (text === '') return [];
  const lines = text.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  else lines[lines.length - 1] += '\n\\ No newline at end of file';
  return lines;
}

/** Myers' O((N+M)·D) diff on lines, after trimming the common head and tail. */
function diffLines(a: readonly string[], b: readonly string[]): Op[] {
  let head = 0;
  while (head < a.length && head < b.length && a[head] === b[head]) head++;
  let tail = 0;
  while (tail < a.length - head && tail < b.length - head && a[a.length - 1 - tail] === b[b.length - 1 - tail]) tail++;
  const x = a.slice(head, a.length - tail);
  const y = b.slice(head, b.length - tail);
  const middle = myers(x, y) ?? plainDiff(x, y);
  return [
    ...a.slice(0, head).map((line) => ({ kind: ' ' as const, line })),
    ...middle,
    ...a.slice(a.length - tail).map((line) => ({ kind: ' ' as const, line })),
  ];
}

/**
 * The diff of the changed middle when Myers' would cost too much: line against line where both sides have as many
 * lines (a rewrite that keeps the line count, such as one token per line), else every old line removed and every
 * new line added. Not the shortest diff, but a true one.
 */
function plainDiff(a: readonly string[], b: readonly string[]): Op[] {
  const ops: Op[] = [];
  if (a.length === b.length) {
    for (let i = 0; i < a.length; i++) {
      if (a[i] === b[i]) ops.push({ kind: ' ', line: a[i] as string });
      else ops.push({ kind: '-', line: a[i] as string }, { kind: '+', line: b[i] as string });
    }
    return ops;
  }
  for (const line of a) ops.push({ kind: '-', line });
  for (const line of b) ops.push({ kind: '+', line });
  return ops;
}

/** Myers' shortest diff, or `undefined` when its trace would pass {@link TRACE_BUDGET}. */
function myers(a: readonly string[], b: readonly string[]): Op[] | undefined {
  const n = a.length;
  const m = b.length;
  if (n === 0) return b.map((line) => ({ kind: '+', line }));
  if (m === 0) return a.map((line) => ({ kind: '-', line }));
  const max = n + m;
  const offset = max;
  let v = new Int32Array(2 * max + 2);
  const trace: Int32Array[] = [];
  let found = false;
  for (let d = 0; d <= max && !found; d++) {
    if ((d + 2) * (2 * max + 2) > TRACE_BUDGET) return undefined;
    trace.push(v.slice());
    const next = v.slice();
    for (let k = -d; k <= d; k += 2) {
      let px: number;
      if (k === -d || (k !== d && (v[offset + k - 1] as number) < (v[offset + k + 1] as number))) {
        px = v[offset + k + 1] as number;
      } else {
        px = (v[offset + k - 1] as number) + 1;
      }
      let py = px - k;
      while (px < n && py < m && a[px] === b[py]) {
        px++;
        py++;
      }
      next[offset + k] = px;
      if (px >= n && py >= m) {
        found = true;
        break;
      }
    }
    v = next;
  }
  trace.push(v);
  // Walk the trace back from (n, m).
  const ops: Op[] = [];
  let px = n;
  let py = m;
  for (let d = trace.length - 2; d >= 0 && (px > 0 || py > 0); d--) {
    const vd = trace[d] as Int32Array;
    const k = px - py;
    let prevK: number;
    if (k === -d || (k !== d && (vd[offset + k - 1] as number) < (vd[offset + k + 1] as number))) prevK = k + 1;
    else prevK = k - 1;
    const prevX = d === 0 ? 0 : (vd[offset + prevK] as number);
    const prevY = prevX - prevK;
    while (px > prevX && py > prevY) {
      ops.push({ kind: ' ', line: a[px - 1] as string });
      px--;
      py--;
    }
    if (d === 0) break;
    if (px === prevX) ops.push({ kind: '+', line: b[py - 1] as string });
    else ops.push({ kind: '-', line: a[px - 1] as string });
    px = prevX;
    py = prevY;
  }
  while (px > 0 && py > 0) {
    ops.push({ kind: ' ', line: a[px - 1] as string });
    px--;
    py--;
  }
  return ops.reverse();
}
