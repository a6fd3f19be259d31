import { PRELUDE_FILENAME } from '../python/prelude.js';
import { stripAnsi } from './text.js';

/**
 * Shortens an IPython traceback to what a model needs: the frames in cells (with their context lines), library
 * frames collapsed to a count with the innermost one kept as a single line, eval's own helper frames dropped, and
 * the exception line. `Cell In [7], line 3` becomes `this cell, line 3` or `cell 7, line 3`.
 */
export function shortenPythonTraceback(traceback: readonly string[], currentCount: number | null): string {
  const entries = traceback.map((entry) => stripAnsi(entry).replace(/\s+$/, ''));
  const out: string[] = [];
  let library: string[] = [];
  const flushLibrary = (keepLast: boolean): void => {
    if (library.length === 0) return;
    const last = library[library.length - 1] as string;
    const hidden = keepLast ? library.length - 1 : library.length;
    if (hidden > 0) out.push(`  … ${hidden} frame${hidden === 1 ? '' : 's'} in library code …`);
    if (keepLast) out.push(firstLine(last));
    library = [];
  };
  for (const [index, entry] of entries.entries()) {
    if (/^-{20,}$/.test(entry)) continue;
    if (/Traceback \(most recent call last\)$/.test(entry)) {
      out.push('Traceback (most recent call last):');
      continue;
    }
    const trimmed = entry.trimStart();
    if (/^(Cell In ?\[\d+\]|Input In ?\[\d+\])/.test(trimmed)) {
      flushLibrary(false);
      out.push(renameCells(entry, currentCount));
      continue;
    }
    if (trimmed.startsWith(`File ${PRELUDE_FILENAME}`)) continue; // eval's own helpers
    if (/^File /.test(trimmed) && index < entries.length - 1) {
      library.push(entry);
      continue;
    }
    flushLibrary(true);
    out.push(renameCells(entry, currentCount));
  }
  flushLibrary(true);
  return out.join('\n');
}

function firstLine(text: string): string {
  return `  ${(text.split('\n')[0] ?? '').trim()}`;
}

function renameCells(text: string, currentCount: number | null): string {
  return text.replace(/(?:Cell|Input) In ?\[(\d+)\](?:, line (\d+))?/g, (_, count: string, line?: string) => {
    const cell = Number(count) === currentCount ? 'this cell' : `cell ${count}`;
    return line ? `${cell}, line ${line}` : cell;
  });
}
