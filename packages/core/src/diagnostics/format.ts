import { countOfTotal } from '../wording.js';
import type { Diagnostic } from './diagnostic.js';

/**
 * One diagnostic as an indented line, labelled with who reported it at the end of its first line:
 * `12:5 error TS2322: message [typescript]`, `3:1 warning curly: message [eslint]`.
 */
export function formatDiagnostic(diagnostic: Diagnostic): string {
  const where = diagnostic.column ? `${diagnostic.line}:${diagnostic.column}` : `${diagnostic.line}`;
  const code = diagnostic.code === undefined || diagnostic.code === '' ? '' : ` ${diagnostic.code}`;
  const [first = '', ...rest] = diagnostic.message.trim().split('\n');
  const label = diagnostic.source ? ` [${diagnostic.source}]` : '';
  return `  ${where} ${diagnostic.severity}${code}: ${[`${first}${label}`, ...rest].join('\n      ')}`;
}

/** A file's new diagnostics as a block, capped at `max` lines with the cut stated. */
export function formatNewDiagnostics(path: string, diagnostics: readonly Diagnostic[], max: number): string {
  const shown = diagnostics.slice(0, max).map(formatDiagnostic);
  const head = `New diagnostics in ${path} (${diagnostics.length}):`;
  const tail = diagnostics.length > max ? [`  (${countOfTotal(max, diagnostics.length)} shown)`] : [];
  return [head, ...shown, ...tail].join('\n');
}

/**
 * A file's diagnostics after a write when those from before it are unknown: listed as they are, none called new
 * (an old problem reported as introduced sends the model fixing what it did not break). `who` names the checkers
 * this is about, when the others' earlier diagnostics were known.
 */
export function formatUnknownBefore(path: string, diagnostics: readonly Diagnostic[], max: number, who?: string): string {
  const from = who ? ` from ${who}` : '';
  if (diagnostics.length === 0) return `No diagnostics in ${path}${from} (its diagnostics from before the write were not known in time, and it has none now).`;
  const shown = diagnostics.slice(0, max).map(formatDiagnostic);
  const head = `Diagnostics of ${path}${from} from before the write were not known in time, so which are new cannot be told; ${who ? `${who} reports` : 'it has'} ${diagnostics.length} now:`;
  const tail = diagnostics.length > max ? [`  (${max} of ${diagnostics.length} shown)`] : [];
  return [head, ...shown, ...tail].join('\n');
}
