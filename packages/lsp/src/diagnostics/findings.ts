import type { Diagnostic } from '@agent-tools/core';
import type { OpenDocument } from '../server/documents.js';
import type { LanguageServer } from '../server/language-server.js';
import { fromLspDiagnostic } from './convert.js';

/** One server's findings on a document: its diagnostics, and why it did not diagnose it when it could not. */
export interface Findings {
  readonly diagnostics: readonly Diagnostic[];
  /** `could not load eslint.config.js: …`, read from what the server reported (see `ServerConfig.problem`). */
  readonly problem?: string;
}

/**
 * A server's diagnostics of an open document's current version, each labelled with the server that reported it
 * (its own `source`, or the configuration's id), and the problem its configuration reads from its reports.
 */
export async function findingsOf(server: LanguageServer, doc: OpenDocument, deadline: number, signal?: AbortSignal): Promise<Findings> {
  const report = (phase: 'before' | 'after') => server.config.problem?.({ root: server.root, path: doc.path, log: server.log, events: server.events.all, phase });
  const known = report('before');
  if (known) return { diagnostics: [], problem: known };
  const list = await server.diagnostics.of(doc, deadline, signal);
  const diagnostics = list.map((d) => fromLspDiagnostic(doc.path, d.source ? d : { ...d, source: server.config.id }));
  const problem = report('after');
  return { diagnostics, ...(problem ? { problem } : {}) };
}

/**
 * A problem of an additional server as a diagnostic of the file, so the write that meets it first says why the
 * file's lint findings are missing (the run's ledger then keeps it from being repeated while it lasts).
 */
export function problemDiagnostic(file: string, server: string, problem: string): Diagnostic {
  return { file, line: 1, severity: 'warning', message: `${server}: ${problem} (this file was not checked by ${server})`, source: server };
}
