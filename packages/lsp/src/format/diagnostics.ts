import { capList, type Diagnostic, formatDiagnostic } from '@agent-tools/core';
import { bySeverityThenPosition } from '../diagnostics/convert.js';
import { displayPath } from '../util/paths.js';
import { plural, showLine } from '../util/text.js';
import type { LineReader } from './line-reader.js';

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
 * Errors and warnings grouped by file (errors first), each with its source line, capped at `max` with the
 * cut stated.
 */
export function renderDiagnostics(
  diagnostics: readonly Diagnostic[],
  options: { readonly cwd: string; readonly reader: LineReader; readonly max: number },
): { text: string; data: DiagnosticData[]; note: string } {
  const sorted = [...diagnostics].sort(
    (a, b) => a.file.localeCompare(b.file) || bySeverityThenPosition(a, b),
  );
  // Errors of every file come before warnings of any, so a cap never hides an error behind a warning.
  const ordered = [...sorted.filter((d) => d.severity === 'error'), ...sorted.filter((d) => d.severity !== 'error')];
  const capped = capList(ordered, options.max);
  const shown = [...capped.items].sort((a, b) => a.file.localeCompare(b.file) || bySeverityThenPosition(a, b));
  const lines: string[] = [];
  const data: DiagnosticData[] = [];
  let current: string | undefined;
  for (const diagnostic of shown) {
    const file = displayPath(diagnostic.file, options.cwd);
    if (file !== current) {
      const count = diagnostics.filter((d) => d.file === diagnostic.file).length;
      lines.push(`${file} (${count})`);
      current = file;
    }
    const text = options.reader.line(diagnostic.file, diagnostic.line - 1);
    lines.push(formatDiagnostic(diagnostic));
    if (text?.trim()) lines.push(`      > ${showLine(text)}`);
    data.push({ ...diagnostic, file, ...(text === undefined ? {} : { text }) });
  }
  if (capped.note) lines.push(`(${capped.note}; errors are listed first)`);
  return { text: lines.join('\n'), data, note: capped.note };
}
