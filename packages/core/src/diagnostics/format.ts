import { countOfTotal } from '../wording.js';
import type { Diagnostic } from './diagnostic.js';

/** One diagnostic as an indented line: `12:5 error TS2322: message`. */
export function formatDiagnostic(diagnostic: Diagnostic): string {
  const where = diagnostic.column ? `${diagnostic.line}:${diagnostic.column}` : `${diagnostic.line}`;
  const code = diagnostic.code === undefined || diagnostic.code === '' ? '' : ` ${diagnostic.code}`;
  const message = diagnostic.message.trim().split('\n').join('\n      ');
  return `  ${where} ${diagnostic.severity}${code}: ${message}`;
}

/** A file's new diagnostics as a block, capped at `max` lines with the cut stated. */
export function formatNewDiagnostics(path: string, diagnostics: readonly Diagnostic[], max: number): string {
  const shown = diagnostics.slice(0, max).map(formatDiagnostic);
  const head = `New diagnostics in ${path} (${diagnostics.length}):`;
  const tail = diagnostics.length > max ? [`  (${countOfTotal(max, diagnostics.length)} shown)`] : [];
  return [head, ...shown, ...tail].join('\n');
}
