import type { Diagnostic } from '@agent-tools/core';
import { formatDiagnostic, plural, shownNote } from '@agent-tools/core/internal';
import { bySeverityThenPosition } from '../diagnostics/convert.js';
import { displayPath } from '../util/paths.js';
import { showLine } from '../util/text.js';
import type { LineReader } from './line-reader.js';
import { countByFile, cutLines, type FileCount, pageOf } from './paging.js';

/** A diagnostic as programs receive it: workspace-relative, 1-based. */
export interface DiagnosticData extends Omit<Diagnostic, 'file'> {
  readonly file: string;
  readonly text?: string;
}

/** `2 errors, 1 warning`, or `no errors or warnings`. */
export function countText(diagnostics: readonly Diagnostic[]): string {
  const errors = diagnostics.filter((d) => d.severity === 'error').length;
  const warnings = diagnostics.filter((d) => d.severity === 'warning').length;
  if (errors === 0 && warnings === 0) return 'no errors or warnings';
  return `${plural(errors, 'error')}, ${plural(warnings, 'warning')}`;
}

/**
 * Errors and warnings grouped by file, each with its source line, one page of `max` at `offset` in a stable order
 * (errors of every file before warnings of any, so a cap never hides an error behind a warning). A cut list names
 * every file with its count and says the exact call for the next page.
 */
export function renderDiagnostics(
  diagnostics: readonly Diagnostic[],
  options: {
    readonly cwd: string;
    readonly reader: LineReader;
    readonly max: number;
    readonly offset?: number;
    readonly nextCall?: (offset: number) => string;
  },
): { text: string; data: DiagnosticData[]; note: string; offset: number; next: number | undefined; files: readonly FileCount[] } {
  const sorted = [...diagnostics].sort((a, b) => a.file.localeCompare(b.file) || bySeverityThenPosition(a, b));
  const ordered = [...sorted.filter((d) => d.severity === 'error'), ...sorted.filter((d) => d.severity !== 'error')];
  const page = pageOf(ordered, options.offset ?? 0, options.max);
  const shown = [...page.items].sort((a, b) => a.file.localeCompare(b.file) || bySeverityThenPosition(a, b));
  const perFile = new Map<string, number>();
  for (const d of diagnostics) perFile.set(d.file, (perFile.get(d.file) ?? 0) + 1);
  const lines: string[] = [];
  const data: DiagnosticData[] = [];
  let current: string | undefined;
  for (const diagnostic of shown) {
    const file = displayPath(diagnostic.file, options.cwd);
    if (file !== current) {
      lines.push(`${file} (${perFile.get(diagnostic.file) ?? 0})`);
      current = file;
    }
    const text = options.reader.line(diagnostic.file, diagnostic.line - 1);
    lines.push(formatDiagnostic(diagnostic));
    if (text?.trim()) lines.push(`      > ${showLine(text)}`);
    data.push({ ...diagnostic, file, ...(text === undefined ? {} : { text }) });
  }
  const fileOf = (d: Diagnostic): string => displayPath(d.file, options.cwd);
  const nextCall = options.nextCall ?? ((offset: number) => `with "offset": ${offset}`);
  const cut = cutLines(page, ordered, fileOf, { noun: 'diagnostics (errors first)', nextCall });
  if (cut) lines.push(cut);
  const note = shownNote(page.offset, page.items.length, page.total);
  return { text: lines.join('\n'), data, note, offset: page.offset, next: page.next, files: countByFile(ordered, fileOf) };
}
