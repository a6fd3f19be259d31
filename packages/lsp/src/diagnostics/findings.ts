import type { Diagnostic } from '@agent-tools/core';
import type { Diagnostic as LspDiagnostic } from 'vscode-languageserver-protocol';
import { rootLabel } from '../format/root-label.js';
import type { OpenDocument } from '../server/documents.js';
import type { LanguageServer } from '../server/language-server.js';
import { fromLspDiagnostic } from './convert.js';
import { ignoredByConfiguration } from './ignored-files.js';

/** One server's findings on a document: its diagnostics, and why it did not diagnose it when it could not. */
export interface Findings {
  readonly diagnostics: readonly Diagnostic[];
  /** `could not load eslint.config.js: …`, read from what the server reported (see `ServerConfig.problem`). */
  readonly problem?: string;
  /** The server's configuration leaves the document out (see `ServerConfig.ignoredNotice`): it checked nothing. */
  readonly ignored?: true;
}

/** How often a server's reports are read again while its diagnostics are awaited. */
const PROBLEM_POLL_MS = 100;

/**
 * A server's diagnostics of an open document's current version, each labelled with the server that reported it
 * (its own `source`, or the configuration's id), and the problem its configuration reads from its reports. A problem
 * that shows while the diagnostics are awaited (Biome logs a configuration it cannot load a moment after it starts,
 * and then publishes nothing) ends the wait at once, instead of letting it run out without a reason.
 */
export async function findingsOf(server: LanguageServer, doc: OpenDocument, deadline: number, signal?: AbortSignal): Promise<Findings> {
  const read = server.config.problem;
  const report = (phase: 'before' | 'after') =>
    read?.({ root: server.root, path: doc.path, log: server.log, events: server.events.all, phase, binary: server.binary.display, rootLabel: rootLabel(server.root, server.cwd) });
  const known = report('before');
  if (known) return { diagnostics: [], problem: known };
  if (await ignoredByConfiguration(server, doc.path)) return { diagnostics: [], ignored: true };
  const list = read ? await diagnosticsOrProblem(server, doc, deadline, () => report('before'), signal) : await server.diagnostics.of(doc, deadline, signal);
  if (typeof list === 'string') return { diagnostics: [], problem: list };
  const ignored = server.config.ignoredNotice;
  if (ignored && list.some((d) => ignored(d))) return { diagnostics: [], ignored: true };
  const diagnostics = list.map((d) => fromLspDiagnostic(doc.path, d.source ? d : { ...d, source: server.config.id }));
  const problem = report('after');
  return { diagnostics, ...(problem ? { problem } : {}) };
}

/** The document's diagnostics, or the problem the server reports first while they are awaited. */
async function diagnosticsOrProblem(
  server: LanguageServer,
  doc: OpenDocument,
  deadline: number,
  problem: () => string | undefined,
  signal?: AbortSignal,
): Promise<readonly LspDiagnostic[] | string> {
  const stop = new AbortController();
  const both = signal ? AbortSignal.any([signal, stop.signal]) : stop.signal;
  let timer: NodeJS.Timeout | undefined;
  const found = new Promise<string>((resolve, reject) => {
    const look = () => {
      // The reader is the configuration's (a harness's own): a throw in this timer would end the process, so it
      // becomes the wait's failure instead.
      let text: string | undefined;
      try {
        text = problem();
      } catch (error) {
        return reject(error);
      }
      if (text) resolve(text);
      else timer = setTimeout(look, PROBLEM_POLL_MS);
    };
    timer = setTimeout(look, PROBLEM_POLL_MS);
  });
  const wait = server.diagnostics.of(doc, deadline, both);
  // Once the problem won, the wait is cancelled: its rejection is expected and not an answer.
  wait.catch(() => {});
  try {
    return await Promise.race([wait, found]);
  } finally {
    clearTimeout(timer);
    stop.abort();
  }
}

/**
 * A problem of an additional server as a diagnostic of the file, so the write that meets it first says why the
 * file's lint findings are missing (the run's ledger then keeps it from being repeated while it lasts).
 */
export function problemDiagnostic(file: string, server: string, problem: string): Diagnostic {
  return { file, line: 1, severity: 'warning', message: `${server}: ${problem} (this file was not checked by ${server})`, source: server };
}
