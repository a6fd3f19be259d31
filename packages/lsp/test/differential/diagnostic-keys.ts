import type { PublishedDiagnostic } from './direct-client.js';

const SEVERITY: Record<number, string> = { 1: 'error', 2: 'warning' };

/** Errors and warnings a server published, as severity|code|message keys (the ledger's identity of a diagnostic). */
export function keysOf(published: readonly PublishedDiagnostic[]): string[] {
  return published
    .filter((d) => (d.severity ?? 1) <= 2)
    .map((d) => `${SEVERITY[d.severity ?? 1]}|${d.code ?? ''}|${d.message}`)
    .sort();
}

/** The package's diagnostics (core's shape) as the same keys. */
export function keysOfReported(diagnostics: ReadonlyArray<{ severity: string; code?: string | number; message: string }>): string[] {
  return diagnostics.map((d) => `${d.severity}|${d.code ?? ''}|${d.message}`).sort();
}

/** What `after` has more than `before`, counting repeats (a multiset difference), sorted. */
export function added(after: readonly string[], before: readonly string[]): string[] {
  const left = new Map<string, number>();
  for (const k of before) left.set(k, (left.get(k) ?? 0) + 1);
  const out: string[] = [];
  for (const k of after) {
    const n = left.get(k) ?? 0;
    if (n > 0) left.set(k, n - 1);
    else out.push(k);
  }
  return out.sort();
}
