import { plural, stripTerminalCodes } from '@agent-tools/core/internal';
import { PRELUDE_FILENAME } from '../python/prelude.js';

interface Segment {
  entries: string[];
  /** How this exception relates to the next one (`The above exception was the direct cause ...`). */
  link?: string;
}

const HEADER = /Traceback \(most recent call last\)$/;
const LINK = /^(The above exception was the direct cause|During handling of the above exception)/;

/**
 * Shortens an IPython traceback to what a model needs: the frames in cells (with their context lines), library
 * frames collapsed to a count with the innermost one kept as a single line, eval's own helper frames dropped, and
 * the exception line. Chained exceptions shrink to one line each. `Cell In [7], line 3` becomes
 * `this cell, line 3` or `cell 7, line 3`.
 */
export function shortenPythonTraceback(traceback: readonly string[], currentCount: number | null): string {
  const segments: Segment[] = [{ entries: [] }];
  for (const raw of traceback) {
    const entry = stripTerminalCodes(raw).replace(/\s+$/, '');
    const current = segments[segments.length - 1] as Segment;
    if (/^-{20,}$/.test(entry)) continue;
    if (LINK.test(entry.trim())) {
      current.link = entry.trim();
      continue;
    }
    if (HEADER.test(entry) && current.entries.some((e) => !HEADER.test(e))) {
      segments.push({ entries: [entry] });
      continue;
    }
    current.entries.push(entry);
  }
  const last = segments[segments.length - 1] as Segment;
  const lines = renderSegment(last.entries, currentCount);
  for (const earlier of segments.slice(0, -1)) {
    const exception = [...earlier.entries].reverse().find((e) => !isFrame(e) && !HEADER.test(e));
    if (!exception) continue;
    const relation = earlier.link?.startsWith('The above') ? 'Caused by' : 'Raised while handling';
    lines.push(`(${relation} an earlier ${exception.trim().split('\n')[0]}; its frames are not shown.)`);
  }
  return lines.join('\n');
}

function renderSegment(entries: readonly string[], currentCount: number | null): string[] {
  const out: string[] = [];
  let library: string[] = [];
  const flushLibrary = (keepInnermost: boolean): void => {
    if (library.length === 0) return;
    const hidden = keepInnermost ? library.length - 1 : library.length;
    if (hidden > 0) out.push(`  … ${plural(hidden, 'frame')} in library code …`);
    if (keepInnermost) out.push(`  ${(library[library.length - 1]?.split('\n')[0] ?? '').trim()}`);
    library = [];
  };
  for (const [index, entry] of entries.entries()) {
    if (HEADER.test(entry)) {
      out.push('Traceback (most recent call last):');
      continue;
    }
    const trimmed = entry.trimStart();
    if (/^(Cell|Input) In ?\[\d+\]/.test(trimmed)) {
      flushLibrary(false);
      out.push(renameCells(entry, currentCount));
      continue;
    }
    if (trimmed.startsWith(`File ${PRELUDE_FILENAME}`)) continue; // eval's own helpers
    if (trimmed.startsWith('File ') && index < entries.length - 1) {
      library.push(entry);
      continue;
    }
    flushLibrary(true);
    out.push(renameCells(entry, currentCount));
  }
  flushLibrary(true);
  return out;
}

function isFrame(entry: string): boolean {
  return /^\s*(File |Cell In ?\[|Input In ?\[)/.test(entry);
}

function renameCells(text: string, currentCount: number | null): string {
  return text.replace(/(?:Cell|Input) In ?\[(\d+)\](?:, line (\d+))?/g, (_, count: string, line?: string) => {
    const cell = Number(count) === currentCount ? 'this cell' : `cell ${count}`;
    return line ? `${cell}, line ${line}` : cell;
  });
}
