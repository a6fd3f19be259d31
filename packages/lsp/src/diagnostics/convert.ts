import type { Diagnostic, DiagnosticSeverity } from '@agent-tools/core';
import type { Diagnostic as LspDiagnostic } from 'vscode-languageserver-protocol';

const SEVERITIES: Record<number, DiagnosticSeverity> = { 1: 'error', 2: 'warning', 3: 'information', 4: 'hint' };

/** An LSP diagnostic as core's {@link Diagnostic}: absolute path, 1-based line and column. */
export function fromLspDiagnostic(file: string, diagnostic: LspDiagnostic): Diagnostic {
  const { start, end } = diagnostic.range;
  // tsserver's codes are numbers; programmers (and tsc) write them TS2322.
  const code = typeof diagnostic.code === 'number' && diagnostic.source === 'typescript' ? `TS${diagnostic.code}` : diagnostic.code;
  return {
    file,
    line: start.line + 1,
    column: start.character + 1,
    endLine: end.line + 1,
    endColumn: end.character + 1,
    // LSP leaves a missing severity to the client; an unclassified problem is treated as an error.
    severity: SEVERITIES[diagnostic.severity ?? 1] ?? 'error',
    ...(code === undefined || code === null || code === '' ? {} : { code }),
    message: typeof diagnostic.message === 'string' ? diagnostic.message : diagnostic.message.value,
    ...(diagnostic.source ? { source: diagnostic.source } : {}),
  };
}

/** Orders diagnostics by severity (errors first), then position. */
export function bySeverityThenPosition(a: Diagnostic, b: Diagnostic): number {
  const rank = (d: Diagnostic): number => ['error', 'warning', 'information', 'hint'].indexOf(d.severity);
  return rank(a) - rank(b) || a.line - b.line || (a.column ?? 0) - (b.column ?? 0);
}
