import { existsSync } from 'node:fs';
import { extname } from 'node:path';
import { AgentToolsError, type CheckOptions, type Diagnostic, displayPath, errorDetail, type FileCheck, type PendingPart } from '@agent-tools/core';
import { causedByAbort } from '@agent-tools/core/internal';
import type { ServerConfig } from '../config/server-config.js';
import type { AdditionalResolution } from '../discovery/additional.js';
import type { ResolvedCommand } from '../discovery/binary.js';
import type { Resolution } from '../discovery/resolution.js';
import { isLspError } from '../errors.js';
import type { LanguageServer } from '../server/language-server.js';
import { type FileServer, fileServers } from './file-servers.js';
import { findingsOf, problemDiagnostic } from './findings.js';

/** What checking written files needs of the supervisor. */
export interface CheckHost {
  /** The working directory, for the paths the model reads. */
  readonly cwd: string;
  resolve(path: string): Resolution;
  /** The additional servers of a file (ESLint, Biome): usable ones, and those that cannot start with the reason. */
  additionalFor(path: string): AdditionalResolution[];
  /** Records why a server did not diagnose a document (undefined: it did), for status. */
  noteProblem(server: LanguageServer, problem: string | undefined): void;
  serverForRoot(config: ServerConfig, root: string, binary: ResolvedCommand, signal?: AbortSignal): Promise<LanguageServer>;
  /** How long a write's diagnostics are awaited in the background after the inline budget. */
  readonly lateDiagnosticsMs: number;
  /** Files seen on disk before a write (baselined or synced), so a first sync of others means "created". */
  readonly knownFiles: Set<string>;
  /** Whether a running server has the file open. */
  isOpen(path: string): boolean;
  /** Tells the harness of a bug (a configuration's hook, ours) met while checking: the check only says it failed. */
  reportBug(error: unknown): void;
}

type Outcome = { readonly ok: true; readonly diagnostics: readonly Diagnostic[] } | { readonly ok: false; readonly reason: string };

/**
 * One server's part of a file's outcome; an additional server that fails only adds its problem (`failed`: it ran out
 * of time, so a late part of it is no verdict on the file).
 */
type Part = Outcome & { readonly problem?: { readonly server: string; readonly text: string }; readonly failed?: true };

/** A file's outcome with the servers that had not answered in time. */
type PartlyOutcome = Outcome & { readonly pending?: readonly PendingPart[] };

/** A server's part of a file's outcome while it is awaited, and its answer once it came. */
interface Awaited {
  readonly target: FileServer;
  readonly part: Promise<Part>;
  done?: Part;
}

/**
 * The supervisor's side of core's write hook. Files are already on disk: each is synced to its server (a new
 * version, save, a watched-file event for a created file) before any diagnostics are asked for, so a batch that
 * creates two files importing each other sees both. Answers within the inline budget are `checked`; the rest
 * are `pending` and keep being awaited in the background for `lateDiagnosticsMs`. Each server's part counts on its
 * own: a file whose primary server answered in time is `checked` with what it found, and the additional servers
 * that had not answered yet (ESLint loading a slow configuration) are its pending parts, which come later.
 *
 * `baseline` opens existing files before their first write and reports what they already had.
 *
 * A file's diagnostics are those of its primary server and of its additional servers (ESLint, Biome) merged, each
 * labelled with its source. An additional server that cannot start or cannot load the project's configuration never
 * blocks the others: the check says why in one warning of its own (a write's first answer shows it, the ledger keeps
 * later ones quiet), never in a baseline, which would hide it as "already there".
 */
export async function checkFiles(
  host: CheckHost,
  files: readonly string[],
  options: CheckOptions,
  mode: 'check' | 'baseline',
): Promise<FileCheck[]> {
  // A baseline that misses its budget is dropped by core, and the file's old problems would then be reported as
  // introduced by the write: it may use part of the grace core allows beyond the budget (a cold server start).
  const deadline = Date.now() + options.budgetMs + (mode === 'baseline' ? Math.min(options.budgetMs, 1500) : 0);
  // A baseline that misses its deadline is dropped, so its requests end there too (cancelled), instead of keeping
  // the server busy while the write's own check waits behind them.
  const lateDeadline = mode === 'baseline' ? deadline : Date.now() + Math.max(options.budgetMs, host.lateDiagnosticsMs);
  const outcomes = new Map<string, Promise<Outcome>>();
  const parts = new Map<string, Awaited[]>();
  const missing = new Map<string, Part[]>();
  const groups = new Map<string, { target: FileServer; files: string[] }>();
  const unchecked: FileCheck[] = [];

  for (const file of new Set(files)) {
    const servers = fileServers(host.resolve(file), host.additionalFor(file));
    if (!servers.ok) {
      const { resolution } = servers;
      // A write of a file no server handles (README.md) gets a short note, not the list of every extension.
      const reason = resolution.code === 'no_server' ? `no language server handles ${extname(file) || 'extensionless'} files` : resolution.reason;
      unchecked.push({ file, state: 'unchecked', reason });
      continue;
    }
    missing.set(file, servers.missing.map((m) => ({ ok: true, diagnostics: [], problem: { server: m.server, text: `cannot start: ${m.reason}` } })));
    parts.set(file, []);
    for (const target of servers.servers) {
      const key = `${target.config.id}\u0000${target.root}`;
      const group = groups.get(key) ?? { target, files: [] };
      group.files.push(file);
      groups.set(key, group);
    }
  }

  for (const { target, files: groupFiles } of groups.values()) {
    const ready = host
      .serverForRoot(target.config, target.root, target.binary, options.signal)
      .then((server) => ({ server, docs: syncAll(host.knownFiles, server, groupFiles, mode) }));
    for (const [index, file] of groupFiles.entries()) {
      const part = ready.then(
        async ({ server, docs }): Promise<Part> => {
          const doc = docs[index];
          if (!doc) return { ok: true, diagnostics: [] }; // The write deleted it: nothing to report.
          const found = await findingsOf(server, doc, lateDeadline, options.signal);
          if (target.additional) host.noteProblem(server, found.problem);
          return { ok: true, diagnostics: found.diagnostics, ...(found.problem ? { problem: { server: target.config.name, text: found.problem } } : {}) };
        },
      ).catch((error: unknown): Part => {
        // An LspError (a server that failed or timed out) is the part's answer; anything else is also a bug to tell.
        if (!AgentToolsError.isInstance(error) && !(options.signal?.aborted && causedByAbort(error, options.signal.reason))) host.reportBug(error);
        const reason = errorDetail(error);
        // An additional server that fails leaves the primary server's answer standing, and says why it is missing.
        if (!target.additional) return { ok: false, reason };
        // In a baseline any failure (a crash, a failed request, not only a timeout) leaves what it had before unknown.
        const failed = mode === 'baseline' || isLspError(error, 'timeout', 'cancelled') ? ({ failed: true } as const) : {};
        return { ok: true, diagnostics: [], problem: { server: target.config.name, text: reason }, ...failed };
      });
      const awaited: Awaited = { target, part };
      void part.then((done) => {
        awaited.done = done;
      });
      parts.get(file)?.push(awaited);
    }
  }

  for (const [file, pending] of parts) {
    outcomes.set(file, Promise.all(pending.map((p) => p.part)).then((done) => merge(file, [...done, ...(missing.get(file) ?? [])], mode)));
  }

  const inline = await settleBy(outcomes, deadline);
  const checks: FileCheck[] = [...unchecked];
  for (const [file, outcome] of outcomes) {
    const awaited = parts.get(file) ?? [];
    // A baseline part that ran out of time is no baseline: it stays pending, so what that server reports after the
    // write is never called new (taking it as "none before" would).
    const whole = mode === 'baseline' && awaited.some(timedOut) ? undefined : inline.get(file);
    const done: PartlyOutcome | undefined = whole ?? partly(host.cwd, file, awaited, missing.get(file) ?? [], mode);
    if (done?.ok) checks.push({ file, state: 'checked', diagnostics: done.diagnostics, ...(done.pending?.length ? { pending: done.pending } : {}) });
    else if (done && !done.ok) checks.push({ file, state: 'unchecked', reason: done.reason });
    else checks.push({ file, state: 'pending', settled: outcome.then((o) => (o.ok ? o.diagnostics : undefined)) });
  }
  return checks;
}

/**
 * A file's outcome when some of its servers answered in time and others did not: what the answered ones found, the
 * others as pending parts. Undefined (the whole file pending) while its primary server has not answered: its types
 * are what a write most often breaks, and a file `checked` without them would read as verified.
 */
function partly(
  cwd: string,
  file: string,
  awaited: readonly Awaited[],
  missing: readonly Part[],
  mode: 'check' | 'baseline',
): PartlyOutcome | undefined {
  const isDone = (a: Awaited) => a.done !== undefined && !(mode === 'baseline' && timedOut(a));
  const answered = awaited.flatMap((a) => (a.done && isDone(a) ? [a.done] : []));
  const primary = awaited.find((a) => !a.target.additional);
  if (answered.length === 0 || (primary && !isDone(primary))) return undefined;
  const outcome = merge(file, [...answered, ...missing], mode);
  if (!outcome.ok) return outcome;
  const next = `call lsp with action "diagnostics" and file "${displayPath(file, cwd)}"`;
  const pending = awaited
    .filter((a) => !isDone(a))
    .map(({ target, part }): PendingPart => {
      const { name, id } = target.config;
      // Its late answer is its diagnostics and, when it could not check the file, its problem; no answer is none.
      const settled = part.then((p) => (!p.ok || p.failed ? undefined : merge(file, [p], mode))).then((o) => (o?.ok ? o.diagnostics : undefined));
      return { name, sources: [...new Set([name, id])], settled, next };
    });
  return { ...outcome, pending };
}

/** An additional server's part that ran out of time (or was cancelled) before it answered. */
function timedOut(awaited: Awaited): boolean {
  return awaited.done?.ok === true && awaited.done.failed === true;
}

/** One file's outcome from its servers' parts: a failed primary server fails it; problems become one warning each. */
function merge(file: string, done: readonly Part[], mode: 'check' | 'baseline'): Outcome {
  const failed = done.find((p): p is Extract<Part, { ok: false }> => !p.ok);
  if (failed) return failed;
  const diagnostics = done.flatMap((p) => (p.ok ? p.diagnostics : []));
  const problems = mode === 'check' ? done.flatMap((p) => (p.problem ? [problemDiagnostic(file, p.problem.server, p.problem.text)] : [])) : [];
  return { ok: true, diagnostics: [...diagnostics, ...problems] };
}

/** Syncs every file of a group before any diagnostics are requested; returns the open documents by index. */
function syncAll(knownFiles: Set<string>, server: LanguageServer, files: readonly string[], mode: 'check' | 'baseline') {
  server.documents.refreshStale();
  return files.map((file) => {
    const created = mode === 'check' && !knownFiles.has(file) && !server.documents.get(file);
    if (existsSync(file)) knownFiles.add(file);
    // A check after a write refreshes files the write did not change (its dependents) on a server that publishes:
    // their publication from before it would otherwise count as the answer. Pulled diagnostics are asked fresh.
    const refresh = mode === 'check' && !server.config.pullDiagnostics && !server.diagnostics.pulls;
    return server.documents.sync(file, { created, refresh }).doc;
  });
}

/** The outcomes that settle before the deadline. */
async function settleBy(outcomes: ReadonlyMap<string, Promise<Outcome>>, deadline: number): Promise<Map<string, Outcome>> {
  const settled = new Map<string, Outcome>();
  const all = Promise.all(
    [...outcomes].map(([file, outcome]) =>
      outcome.then((value) => {
        settled.set(file, value);
      }),
    ),
  );
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, Math.max(0, deadline - Date.now()));
  });
  await Promise.race([all, timeout]);
  clearTimeout(timer);
  return settled;
}
