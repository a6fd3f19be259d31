import { existsSync } from 'node:fs';
import { AgentToolsError, errorSentence } from '../errors.js';
import { RunNotices } from '../notices.js';
import { displayPath } from '../paths.js';
import { asSentence } from '../sentence.js';
import { formatLimit, plural } from '../wording.js';
import type { Dependents, Diagnostic, DiagnosticSeverity, DiagnosticsSource, FileCheck, PendingPart } from './diagnostic.js';
import { formatNewDiagnostics, formatUnknownBefore } from './format.js';
import { DiagnosticsLedger, type LedgerLimits } from './ledger.js';
import { names, noNewFrom, type PendingName, partSources, pendingPartsLine, wholeCheck } from './pending-parts.js';

/** Options of a run's diagnostics hook. */
export interface RunDiagnosticsOptions {
  readonly cwd?: string;
  /** How long a write waits inline for its diagnostics (default 1500 ms). */
  readonly budgetMs?: number;
  /** Which severities are reported (default errors and warnings). */
  readonly severities?: readonly DiagnosticSeverity[];
  /** New diagnostics shown per file before the rest is counted (default 20). */
  readonly maxPerFile?: number;
  readonly ledger?: LedgerLimits;
  /**
   * Checking the files that depend on written ones (when the source can find them): at most `max` files (default
   * 30), within `budgetMs` after the written files' own check (default 1000 ms); `false` turns it off.
   */
  readonly dependents?: { readonly max?: number; readonly budgetMs?: number } | false;
  /**
   * How long a write waits, before writing, for the diagnostics a file it writes has until then, when the run has
   * none recorded yet (default 10000 ms). Without them no diagnostic of the file can be called new; a cold server
   * checking a large file the first time needs seconds.
   */
  readonly baselineBudgetMs?: number;
  /** Where late diagnostics are posted (a registry passes its own board); a board of its own when omitted. */
  readonly notices?: RunNotices;
  /**
   * Told of a bug of the diagnostics source (anything it throws but an AgentToolsError): the write's answer still
   * says its diagnostics are unavailable, as for a server that failed. A registry passes its `onError`.
   */
  readonly onError?: (error: unknown) => void;
}

/** The source name of late diagnostics on a notice board. */
export const LATE_DIAGNOSTICS_SOURCE = '@agent-tools/core/diagnostics';
const LATE_HEADING = 'Late diagnostics from an earlier write:';

/** What one written file's check found, for programs. */
export interface WrittenFileReport {
  /** Workspace-relative path. */
  readonly file: string;
  readonly state: FileCheck['state'] | 'failed';
  /** The diagnostics introduced by this write (empty unless `checked`). */
  readonly newDiagnostics: readonly Diagnostic[];
  readonly reason?: string;
  /** Set for a file that was not written but depends on one that was (it imports it): the written files it depends on. */
  readonly dependentOf?: readonly string[];
  /**
   * Set when the file's diagnostics from before the write did not arrive in time: all it has after the write
   * (`newDiagnostics` is then empty, since none can be told new).
   */
  readonly unknownBefore?: readonly Diagnostic[];
  /**
   * Set when only some checkers' diagnostics from before the write were known: the checkers whose were not. Then
   * `unknownBefore` holds only what these report now, and `newDiagnostics` what the others introduced.
   */
  readonly unknownBeforeOf?: readonly string[];
  /** Checkers of a `checked` file that had not answered in time; their diagnostics come in a later result. */
  readonly pending?: readonly PendingName[];
}

/** The diagnostics part of a write's result: the text appended for the model and the data behind it. */
export interface WriteDiagnostics {
  readonly text: string;
  readonly files: readonly WrittenFileReport[];
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** One key for a set of files, whatever their order. */
function setKey(files: readonly string[]): string {
  return [...new Set(files)].sort().join('\u0000');
}

/** The notice key of a file's late diagnostics (of one of its checkers, with `part`). */
function lateKey(file: string, part?: string): string {
  return `${LATE_DIAGNOSTICS_SOURCE}\u0000${file}${part === undefined ? '' : `\u0000${part}`}`;
}

/** Grace beyond the budget for a source that does not keep its own budget. */
const SOURCE_GRACE_MS = 2000;

/**
 * The diagnostics hook of one run: the ledger of what was reported, the source to ask, and the late
 * diagnostics, posted to the run's notice board for the next result. Tools that write files call {@link afterWrite};
 * core's write wrapper does it for the harness's own write tools.
 */
export class RunDiagnostics {
  readonly #source: DiagnosticsSource | undefined;
  readonly #cwd: string | undefined;
  readonly #budgetMs: number;
  readonly #severities: ReadonlySet<DiagnosticSeverity>;
  readonly #maxPerFile: number;
  readonly #ledger: DiagnosticsLedger;
  /** Bumped on every write of a file; a late answer for an older generation is dropped. */
  readonly #generation = new Map<string, number>();
  readonly #notices: RunNotices;
  readonly #controller = new AbortController();
  readonly #dependents: { readonly max: number; readonly budgetMs: number };
  /** Dependents found before a write (to take their baseline), by the written files, for the check after it. */
  readonly #found = new Map<string, Dependents>();
  readonly #baselineBudgetMs: number;
  /** Written files whose baseline was asked for before the current write and did not arrive. */
  readonly #noBaseline = new Set<string>();
  /** Files whose baseline came from some of their checkers only: the ones that did not answer in time. */
  readonly #partBaseline = new Map<string, readonly PendingPart[]>();
  /** The checkers with late diagnostics posted or awaited per file, so a new write of the file withdraws them. */
  readonly #lateParts = new Map<string, Set<string>>();

  readonly #onError: ((error: unknown) => void) | undefined;

  constructor(source: DiagnosticsSource | undefined, options: RunDiagnosticsOptions = {}) {
    this.#source = source;
    this.#cwd = options.cwd;
    this.#budgetMs = options.budgetMs ?? 1500;
    this.#baselineBudgetMs = Math.max(this.#budgetMs, options.baselineBudgetMs ?? 10_000);
    this.#severities = new Set(options.severities ?? ['error', 'warning']);
    this.#maxPerFile = options.maxPerFile ?? 20;
    this.#ledger = new DiagnosticsLedger(options.ledger);
    this.#notices = options.notices ?? new RunNotices();
    this.#onError = options.onError;
    const dependents = options.dependents ?? {};
    this.#dependents = dependents === false ? { max: 0, budgetMs: 0 } : { max: dependents.max ?? 30, budgetMs: dependents.budgetMs ?? 1000 };
  }
  /**
   * The catch of a request to the source: its failure means "diagnostics unavailable" (`value`), whatever it was;
   * an AgentToolsError is the source's own answer (a server timed out), anything else is also told to `onError`.
   */
  #unavailable<T>(value: T): (error: unknown) => T {
    return (error) => {
      if (!AgentToolsError.isInstance(error)) {
        try {
          this.#onError?.(error);
        } catch {
          // The harness's logger failed; the write's answer does not depend on it.
        }
      }
      return value;
    };
  }


  /** Whether a source is attached; without one, writes report nothing. */
  get enabled(): boolean {
    return this.#source !== undefined;
  }

  /** The ledger, for inspection in tests and harness UIs. */
  get ledger(): DiagnosticsLedger {
    return this.#ledger;
  }

  /**
   * Records the diagnostics that existing files have before their first write in the run, when the source
   * can tell, so they are not reported as introduced by the write. Never throws.
   */
  async beforeWrite(files: readonly string[], signal?: AbortSignal): Promise<void> {
    const baseline = this.#source?.baseline?.bind(this.#source);
    if (!baseline) return;
    // The files that import these are checked after the write too: their problems before it are the baseline.
    const found = await this.#findDependents(files, signal);
    if (found) {
      // Bounded: a write that failed never takes its entry.
      if (this.#found.size > 50) this.#found.clear();
      this.#found.set(setKey(files), found);
    }
    const unknown = (list: readonly string[]) => list.filter((file) => !this.#ledger.has(file) && existsSync(file));
    const written = unknown([...new Set(files)]);
    const dependents = unknown(found?.files.filter((file) => !files.includes(file)) ?? []);
    // The written files' own baselines may take a cold server's first check of them; the dependents' stay within
    // the inline budget (a dependent without one is only not reported on).
    const [own, others] = await Promise.all([
      written.length ? this.#ask(baseline, written, signal, this.#baselineBudgetMs).catch(this.#unavailable([])) : [],
      dependents.length ? this.#ask(baseline, dependents, signal).catch(this.#unavailable([])) : [],
    ]);
    for (const check of [...own, ...others]) {
      if (check.state !== 'checked') continue;
      this.#ledger.update(check.file, this.#relevant(check.diagnostics));
      // What a checker that did not answer reported before the write is unknown: its findings after it are not new.
      if (check.pending?.length) this.#partBaseline.set(check.file, check.pending);
      else this.#partBaseline.delete(check.file);
    }
    for (const file of written) {
      if (this.#ledger.has(file)) this.#noBaseline.delete(file);
      else this.#noBaseline.add(file);
    }
  }

  /**
   * Tells the ledger that a symbol is being renamed from `from` to `to` (call it after {@link beforeWrite}, before
   * writing): messages already recorded that name it are compared under the new name, so an old problem whose
   * message now says `to` is not reported as introduced by the rename. With `files` (the files the rename edits),
   * only their messages: elsewhere the same word is likely another symbol's.
   */
  renamed(from: string, to: string, files?: readonly string[]): void {
    if (!from || from === to) return;
    const word = new RegExp(`(?<![\\p{ID_Continue}$])${escapeRegExp(from)}(?![\\p{ID_Continue}$])`, 'gu');
    this.#ledger.rewriteMessages((message) => message.replace(word, () => to), files);
  }

  /**
   * Asks the source for the diagnostics of files that were just written and returns the new ones. A check
   * that runs out of time is reported as pending, never as clean; its answer is appended to a later result.
   * Never throws.
   */
  async afterWrite(files: readonly string[], signal?: AbortSignal): Promise<WriteDiagnostics> {
    const source = this.#source;
    const unique = [...new Set(files)];
    if (!source || unique.length === 0) return { text: '', files: [] };
    const generations = new Map(unique.map((file) => [file, this.#bump(file)]));
    // Late diagnostics of an earlier write that wait for the next result are about text no longer in the file.
    for (const file of unique) {
      this.#notices.withdraw(lateKey(file));
      for (const part of this.#lateParts.get(file) ?? []) this.#notices.withdraw(lateKey(file, part));
      this.#lateParts.delete(file);
    }

    let checks: readonly FileCheck[];
    let failure: string | undefined;
    try {
      checks = await this.#ask(source.check.bind(source), unique, signal);
    } catch (error) {
      checks = [];
      failure = errorSentence(error);
      this.#unavailable(undefined)(error);
    }

    const reports = unique.map((file) => {
      const check = checks.find((c) => c.file === file);
      return this.#report(file, check, generations.get(file) ?? 0, failure);
    });
    const dependents = await this.#checkDependents(unique, signal);
    const text = [this.#describe(reports), ...dependents.reports.filter((r) => r.newDiagnostics.length > 0).map((r) => formatNewDiagnostics(`${r.file}, which imports ${(r.dependentOf ?? []).join(', ')}`, r.newDiagnostics, this.#maxPerFile)), dependents.summary]
      .filter(Boolean)
      .join('\n');
    return { text, files: [...reports, ...dependents.reports] };
  }

  /** Asks the source for the files depending on written ones, within the dependents' budget; undefined when it cannot. */
  async #findDependents(files: readonly string[], signal: AbortSignal | undefined): Promise<Dependents | undefined> {
    const source = this.#source;
    if (!source?.dependents || this.#dependents.max === 0 || files.length === 0) return undefined;
    const combined = signal ? AbortSignal.any([signal, this.#controller.signal]) : this.#controller.signal;
    let timer: NodeJS.Timeout | undefined;
    const overrun = new Promise<undefined>((resolve) => {
      timer = setTimeout(resolve, this.#dependents.budgetMs, undefined);
    });
    try {
      return await Promise.race([source.dependents(files, { budgetMs: this.#dependents.budgetMs, signal: combined, max: this.#dependents.max }).catch(this.#unavailable(undefined)), overrun]);
    } finally {
      clearTimeout(timer);
    }
  }

  /**
   * Checks the files that depend on the written ones within the dependents' budget, and reports what is new in
   * those whose diagnostics before the write are known; says what was not checked.
   */
  async #checkDependents(files: readonly string[], signal: AbortSignal | undefined): Promise<{ reports: WrittenFileReport[]; summary: string }> {
    const key = setKey(files);
    const found = this.#found.get(key) ?? (await this.#findDependents(files, signal));
    this.#found.delete(key);
    if (!found || found.total === 0 || !this.#source) return { reports: [], summary: '' };
    const written = files.map((file) => displayPath(file, this.#cwd));
    const what = written.length === 1 ? (written[0] as string) : `the ${written.length} written files`;
    const was = written.length === 1 ? 'was' : 'were';
    const it = written.length === 1 ? 'it' : 'them';
    const list = found.files.filter((file) => !files.includes(file));
    const checks = list.length ? await this.#ask(this.#source.check.bind(this.#source), list, signal, this.#dependents.budgetMs).catch(this.#unavailable([])) : [];
    const reports: WrittenFileReport[] = [];
    let unknownBefore = 0;
    for (const check of checks) {
      if (check.state === 'pending') {
        // Not in time: its answer still becomes the file's baseline for the next write, unless one was taken since.
        this.#follow(check.settled, (late) => {
          if (late && !this.#ledger.has(check.file) && !this.#controller.signal.aborted) this.#ledger.update(check.file, this.#relevant(late));
        });
      }
      if (check.state !== 'checked') continue;
      const known = this.#ledger.has(check.file);
      // A dependent's checkers that answer late only bring its ledger up to date: the write's answer has gone.
      const { fresh } = this.#record(check, this.#generation.get(check.file) ?? 0, { silent: true, noBaseline: !known });
      // Without its diagnostics from before the write, nothing can be called new; the ledger has them from now on.
      if (!known) {
        unknownBefore++;
        continue;
      }
      reports.push({
        file: displayPath(check.file, this.#cwd),
        state: 'checked',
        newDiagnostics: fresh.map((d) => ({ ...d, file: displayPath(d.file, this.#cwd) })),
        dependentOf: written,
      });
    }
    const checked = reports.length;
    const broken = reports.filter((r) => r.newDiagnostics.length > 0).length;
    const notChecked = found.total - checked;
    const parts = [
      checked === 0
        ? `Only ${what} ${was} checked, not the ${plural(found.total, 'file')} depending on ${it} (${found.how})`
        : `Also checked ${checked === found.total ? `the ${plural(checked, 'file')}` : `${checked} of the ${plural(found.total, 'file')}`} depending on ${what} (${found.how}): ${broken === 0 ? 'no new diagnostics in them' : `new diagnostics in ${plural(broken, 'file')}, above`}`,
    ];
    if (notChecked > 0 && checked > 0) {
      const why = [
        unknownBefore > 0 ? `${unknownBefore} without their diagnostics from before the write` : '',
        notChecked - unknownBefore > 0 ? `${notChecked - unknownBefore} not in time or beyond ${this.#dependents.max}` : '',
      ].filter(Boolean);
      parts.push(`${plural(notChecked, 'file')} not checked (${why.join(', ')})`);
    }
    const summary = `${parts.join('; ')}.${notChecked > 0 ? ' Run lsp diagnostics "*" to check the whole project.' : ''}`;
    return { reports, summary };
  }

  /**
   * Takes the late diagnostics that arrived since the last call, as text for the next result ('' if none). A
   * registry does this for every result through its notice board; a program using the hook alone calls it.
   */
  takeLate(): string {
    return this.#notices.take(LATE_DIAGNOSTICS_SOURCE);
  }

  /** Stops waiting for late diagnostics and drops those not yet delivered. */
  dispose(): void {
    this.#controller.abort();
    this.#notices.takeNotices(LATE_DIAGNOSTICS_SOURCE);
  }

  #report(file: string, check: FileCheck | undefined, generation: number, failure: string | undefined): WrittenFileReport {
    const path = displayPath(file, this.#cwd);
    if (!check) {
      const reason = failure ?? 'the diagnostics source gave no answer for it';
      return { file: path, state: 'failed', newDiagnostics: [], reason };
    }
    // A baseline that did not arrive serves this write only: the ledger has the file from its answer on.
    const noBaseline = this.#noBaseline.delete(file);
    if (check.state === 'checked') {
      const { fresh, unknown, unknownOf } = this.#record(check, generation, { silent: false, noBaseline });
      // The ledger keys files by absolute path; what the model and the harness read is workspace-relative.
      const shown = (list: readonly Diagnostic[]) => list.map((d) => ({ ...d, file: displayPath(d.file, this.#cwd) }));
      const pending = check.pending?.length ? { pending: check.pending.map((p) => ({ name: p.name, ...(p.next ? { next: p.next } : {}) })) } : {};
      if (noBaseline) return { file: path, state: 'checked', newDiagnostics: [], unknownBefore: shown([...fresh, ...unknown]), ...pending };
      const partly = unknownOf.length ? { unknownBefore: shown(unknown), unknownBeforeOf: unknownOf } : {};
      return { file: path, state: 'checked', newDiagnostics: shown(fresh), ...partly, ...pending };
    }
    if (check.state === 'pending') {
      this.#awaitLate(file, generation, check.settled, noBaseline);
      return { file: path, state: 'pending', newDiagnostics: [] };
    }
    return { file: path, state: 'unchecked', newDiagnostics: [], reason: check.reason };
  }

  /**
   * Records a checked file in the ledger and returns what is new. Checkers still pending keep their earlier entries
   * and are awaited (`silent`: only to bring the ledger up to date); a checker whose diagnostics from before the write
   * were not known in time (its baseline was pending) has its findings returned as `unknown`, never as new.
   */
  #record(
    check: Extract<FileCheck, { state: 'checked' }>,
    generation: number,
    options: { readonly silent: boolean; readonly noBaseline: boolean },
  ): { fresh: Diagnostic[]; unknown: Diagnostic[]; unknownOf: string[] } {
    const pending = check.pending ?? [];
    const waiting = partSources(pending);
    const found = this.#ledger.update(check.file, this.#relevant(check.diagnostics), waiting.size ? (source) => waiting.has(source) : undefined);
    const missing = this.#partBaseline.get(check.file) ?? [];
    this.#partBaseline.delete(check.file);
    const isPending = (part: PendingPart) => pending.some((p) => p.name === part.name);
    const answered = missing.filter((part) => !isPending(part));
    const unknownSources = partSources(answered);
    for (const part of pending) {
      const noBaseline = options.noBaseline || missing.some((m) => m.name === part.name);
      this.#awaitPart(check.file, generation, part, { silent: options.silent, noBaseline });
    }
    return {
      fresh: found.filter((d) => !unknownSources.has(d.source ?? '')),
      unknown: found.filter((d) => unknownSources.has(d.source ?? '')),
      unknownOf: answered.map((part) => part.name),
    };
  }

  /**
   * Awaits one checker of a file that had not answered in time, and records its answer in the ledger for its own
   * sources only (the others' findings stay); unless `silent`, posts what it found new for the next result.
   */
  #awaitPart(file: string, generation: number, part: PendingPart, options: { readonly silent: boolean; readonly noBaseline: boolean }): void {
    if (!options.silent) {
      const parts = this.#lateParts.get(file) ?? new Set<string>();
      parts.add(part.name);
      this.#lateParts.set(file, parts);
    }
    const own = partSources([part]);
    this.#follow(part.settled, (diagnostics) => {
      if (this.#controller.signal.aborted || (this.#generation.get(file) ?? 0) !== generation) return;
      const path = displayPath(file, this.#cwd);
      const post = (text: string) => {
        if (!options.silent) this.#notices.post({ text, heading: LATE_HEADING, source: LATE_DIAGNOSTICS_SOURCE, key: lateKey(file, part.name) });
      };
      if (diagnostics === undefined) {
        post(`Diagnostics of ${path} from ${part.name} never arrived: the file is not verified by ${part.name}.`);
        return;
      }
      const fresh = this.#ledger.update(file, this.#relevant(diagnostics), (source) => !own.has(source));
      if (options.noBaseline) post(formatUnknownBefore(path, fresh, this.#maxPerFile, part.name));
      else post(fresh.length === 0 ? noNewFrom(path, part.name) : formatNewDiagnostics(`${path}, from ${part.name}`, fresh, this.#maxPerFile));
    });
  }

  #bump(file: string): number {
    const next = (this.#generation.get(file) ?? 0) + 1;
    this.#generation.set(file, next);
    return next;
  }

  #relevant(diagnostics: readonly Diagnostic[]): Diagnostic[] {
    return diagnostics.filter((d) => this.#severities.has(d.severity));
  }

  /** Calls the source with the budget, and turns a source that overruns it into pending answers. */
  async #ask(
    call: DiagnosticsSource['check'],
    files: readonly string[],
    signal: AbortSignal | undefined,
    budgetMs = this.#budgetMs,
  ): Promise<readonly FileCheck[]> {
    const combined = signal ? AbortSignal.any([signal, this.#controller.signal]) : this.#controller.signal;
    const request = call(files, { budgetMs, signal: combined });
    let timer: NodeJS.Timeout | undefined;
    const overrun = new Promise<undefined>((resolve) => {
      timer = setTimeout(resolve, budgetMs + SOURCE_GRACE_MS, undefined);
    });
    try {
      const answer = await Promise.race([request, overrun]);
      if (answer) return answer;
    } finally {
      clearTimeout(timer);
    }
    const late = request.catch(this.#unavailable([] as readonly FileCheck[]));
    return files.map((file) => ({
      file,
      state: 'pending' as const,
      settled: late.then(async (checks) => {
        const check = checks.find((c) => c.file === file);
        if (check?.state === 'checked') return wholeCheck(check);
        if (check?.state === 'pending') return check.settled;
        return undefined;
      }),
    }));
  }

  #awaitLate(file: string, generation: number, settled: Promise<readonly Diagnostic[] | undefined>, noBaseline: boolean): void {
    this.#follow(settled, (diagnostics) => {
      if (this.#controller.signal.aborted || this.#generation.get(file) !== generation) return;
      const path = displayPath(file, this.#cwd);
      if (diagnostics === undefined) {
        this.#late(`Diagnostics of ${path} never arrived: the file is not verified.`, file);
        return;
      }
      const fresh = this.#ledger.update(file, this.#relevant(diagnostics));
      if (noBaseline) this.#late(formatUnknownBefore(path, fresh, this.#maxPerFile), file);
      else this.#late(fresh.length === 0 ? `No new diagnostics in ${path}.` : formatNewDiagnostics(path, fresh, this.#maxPerFile), file);
    });
  }

  /**
   * Follows a late answer of the source, which nobody awaits: a rejection (a source promises none: the file or part
   * then stays unverified) or a throw while it is recorded is a bug, told to `onError` instead of being dropped or
   * left unhandled.
   */
  #follow<T>(late: Promise<T>, record: (value: T) => void): void {
    late.then(record).catch(this.#unavailable(undefined));
  }

  /** Posts a file's late diagnostics, keyed by the file: a later write of it withdraws them unread. */
  #late(text: string, file: string): void {
    this.#notices.post({ text, heading: LATE_HEADING, source: LATE_DIAGNOSTICS_SOURCE, key: lateKey(file) });
  }

  #describe(reports: readonly WrittenFileReport[]): string {
    const seconds = formatLimit(this.#budgetMs);
    const clean = reports.filter((r) => r.state === 'checked' && r.newDiagnostics.length === 0 && !r.unknownBefore && !r.pending).map((r) => r.file);
    // Checkers that have not answered come first: without them the rest is not the whole answer.
    const lines: string[] = reports.flatMap((r) => (r.pending ? [pendingPartsLine(r.file, r.pending, seconds)] : []));
    for (const report of reports) {
      const partly = report.unknownBeforeOf ? names(report.unknownBeforeOf) : undefined;
      if (report.state === 'checked' && partly !== undefined && report.newDiagnostics.length > 0) {
        lines.push(formatNewDiagnostics(report.file, report.newDiagnostics, this.#maxPerFile));
      }
      if (report.unknownBefore) {
        lines.push(formatUnknownBefore(report.file, report.unknownBefore, this.#maxPerFile, partly));
      } else if (report.state === 'checked' && report.newDiagnostics.length > 0) {
        lines.push(formatNewDiagnostics(report.file, report.newDiagnostics, this.#maxPerFile));
      } else if (report.state === 'checked' && report.pending) {
        lines.push(`No new diagnostics in ${report.file} from the checkers that answered.`);
      } else if (report.state === 'pending') {
        lines.push(
          `Diagnostics of ${report.file} are still pending (no answer within ${seconds}); they will be appended to a later result. Do not assume the file is clean.`,
        );
      } else if (report.state === 'unchecked') {
        lines.push(`${report.file} was not checked: ${asSentence(report.reason)}`);
      } else if (report.state === 'failed') {
        lines.push(`${report.file} was not verified: ${asSentence(report.reason)}`);
      }
    }
    if (clean.length > 0) lines.push(`No new diagnostics in ${clean.join(', ')}.`);
    return lines.join('\n');
  }
}

