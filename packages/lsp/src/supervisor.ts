import { type CheckOptions, type Dependents, type DiagnosticsSource, errorDetail, type FileCheck } from '@agent-tools/core';
import { BackgroundErrors, type BackgroundReporter, outsideFileLocks } from '@agent-tools/core/internal';
import { builtinServers } from './config/builtin-servers.js';
import { handlesFile } from './config/file-match.js';
import type { ServerConfig } from './config/server-config.js';
import { type CheckHost, checkFiles } from './diagnostics/check-files.js';
import { applyConfigurationChanges } from './diagnostics/configuration-changes.js';
import { findDependents } from './diagnostics/dependents.js';
import { type AdditionalResolution, resolveAdditional } from './discovery/additional.js';
import { findBinary, type ResolvedCommand } from './discovery/binary.js';
import { type Resolution, resolveServer } from './discovery/resolution.js';
import { discoverRoots } from './discovery/root.js';
import { LspError } from './errors.js';
import type { FramingLimits } from './rpc/connection.js';
import { LanguageServer, type ServerLimits } from './server/language-server.js';
import { describeItem } from './server/work-progress.js';
import { displayPath } from './util/paths.js';
import { raceSignal } from './util/race-signal.js';

/** How a supervisor is set up. Everything but `cwd` has a default. */
export interface LspSupervisorOptions {
  /** The run's working directory: roots are searched inside it. */
  readonly cwd: string;
  /**
   * Extra or replacement server configurations; one with a built-in's id replaces it. Checked before the
   * built-ins, so a harness's server wins an extension both handle.
   */
  readonly servers?: readonly ServerConfig[];
  /** Which built-in servers to keep: all (`true`, the default), none, or these ids. */
  readonly builtins?: boolean | readonly string[];
  /**
   * Which additional servers (role `additional`: ESLint, Biome, or a harness's own) may add their diagnostics and
   * code actions to a file's primary server: all (`true`, the default), none, or these ids.
   */
  readonly additional?: boolean | readonly string[];
  /** How long a request may take before it is reported as hung (default 20 s; servers may set their own). */
  readonly requestTimeoutMs?: number;
  /** How long starting and initializing a server may take (default 60 s). */
  readonly startTimeoutMs?: number;
  /** How long a server gets to shut down before it is killed (default 2 s). */
  readonly shutdownGraceMs?: number;
  /** Documents kept open per server (default 200). */
  readonly maxOpenDocuments?: number;
  /** Crashes tolerated within `restartWindowMs` before automatic restarts stop (default 3 in 5 minutes). */
  readonly maxCrashes?: number;
  readonly restartWindowMs?: number;
  /** How long a project checker of `diagnostics "*"` may run (default 120 s). */
  readonly checkTimeoutMs?: number;
  /**
   * How long a query waits for a server that is still indexing or loading the workspace before it answers with
   * what it has, saying so in the first line (default 30 s).
   */
  readonly indexWaitMs?: number;
  /** How long a write's diagnostics are awaited in the background after the inline budget (default 30 s). */
  readonly lateDiagnosticsMs?: number;
  /** Environment of servers and checkers, including the search path (default `process.env`). */
  readonly env?: NodeJS.ProcessEnv;
  /** Malformed messages tolerated per server within 10 s before it is killed (default 200). */
  readonly maxMalformed?: number;
  readonly framing?: FramingLimits;
}

/** One server instance as status reports it. */
export interface InstanceStatus {
  /** The root, workspace-relative. */
  readonly root: string;
  readonly state: LanguageServer['state'];
  readonly pid: number | undefined;
  readonly uptimeMs: number;
  readonly openDocuments: number;
  /** Work in progress the server reports (`Loading packages...`). */
  readonly progress: readonly string[];
  /** How often it was started for this root. */
  readonly starts: number;
  readonly binary: string;
  /** Why it stopped or failed to start, when it did. */
  readonly lastFailure?: string;
  /** Why it did not diagnose the last document it was asked about (a configuration that does not load). */
  readonly problem?: string;
}

/** One configured server as status reports it, for the working directory. */
export interface ServerStatus {
  readonly id: string;
  readonly name: string;
  readonly languages: string;
  readonly extensions: readonly string[];
  readonly markers: readonly string[];
  readonly instances: readonly InstanceStatus[];
  /** Roots found in the working directory (workspace-relative). */
  readonly roots: readonly string[];
  /** Where the binary was found, when it was. */
  readonly binary?: { readonly path: string; readonly source: ResolvedCommand['source'] };
  /** Where the binary was looked for, when it was not found. */
  readonly looked: readonly string[];
  /** What keeps it from starting here: `root marker`, `binary`, both, or nothing. */
  readonly missing: ReadonlyArray<'root marker' | 'binary'>;
  /** `primary` answers navigation for its files; `additional` adds diagnostics and code actions to theirs. */
  readonly role: 'primary' | 'additional';
  /** Programs it runs for part of its work (shellcheck), and where each was found on the search path. */
  readonly companions?: ReadonlyArray<{ readonly binary: string; readonly gives: string; readonly install: string; readonly found?: string }>;
  /** What it needs in the project and did not find there (ESLint: the project's eslint package), per root. */
  readonly unmet?: ReadonlyArray<{ readonly root: string; readonly reason: string }>;
}

/** What a reload did for one server. */
export interface ReloadOutcome {
  readonly server: string;
  readonly previousPid: number | undefined;
  readonly pid: number | undefined;
  readonly error?: string;
}

interface Entry {
  readonly key: string;
  readonly config: ServerConfig;
  readonly root: string;
  readonly binary: ResolvedCommand;
  server: LanguageServer | undefined;
  starts: number;
  crashes: number[];
  lastFailure: string | undefined;
  /** Set when the server crashed; becomes a note for the model when it is restarted. */
  crashReason: string | undefined;
}

/**
 * The language-server supervisor of one run: which servers exist, which can answer for a file (root marker
 * *and* binary, decided at call time), one process per (server, root) started lazily, restarted after a crash
 * with a note for the model, and all shut down on dispose. It is also the run's {@link DiagnosticsSource}.
 */
export class LspSupervisor implements DiagnosticsSource, AsyncDisposable {
  readonly cwd: string;
  /** The configurations in order of preference (the harness's first). */
  readonly servers: readonly ServerConfig[];
  /** Additional servers (ESLint, Biome, …) the harness's `additional` option left out, so `status` can say lint is off. */
  readonly turnedOff: readonly ServerConfig[];
  readonly #options: LspSupervisorOptions;
  readonly #limits: ServerLimits;
  readonly #entries = new Map<string, Entry>();
  readonly #notes: string[] = [];
  /** Why an additional server did not diagnose the last document it was asked about (its configuration failed). */
  readonly #problems = new WeakMap<LanguageServer, string>();
  /** What the write hook needs of the supervisor; kept out of its public surface. */
  readonly #checkHost: CheckHost;
  /** Where the servers' handlers (notifications, requests, exits) send a bug: the runs that subscribed. */
  readonly #background = new BackgroundErrors();
  #disposed: Promise<void> | undefined;

  constructor(options: LspSupervisorOptions) {
    this.#options = options;
    this.cwd = options.cwd;
    const candidates = mergeServers(options.servers ?? [], options.builtins ?? true);
    const additional = options.additional ?? true;
    const chosen = (config: ServerConfig): boolean =>
      config.role !== 'additional' || additional === true || (additional !== false && additional.includes(config.id));
    this.servers = candidates.filter(chosen);
    this.turnedOff = candidates.filter((config) => !chosen(config));
    this.#limits = {
      requestTimeoutMs: options.requestTimeoutMs ?? 20_000,
      startTimeoutMs: options.startTimeoutMs ?? 60_000,
      shutdownGraceMs: options.shutdownGraceMs ?? 2000,
      maxOpenDocuments: options.maxOpenDocuments ?? 200,
      maxMalformed: options.maxMalformed ?? 200,
      ...(options.framing ? { framing: options.framing } : {}),
    };
    this.#checkHost = {
      cwd: this.cwd,
      resolve: (path) => this.resolve(path),
      additionalFor: (path) => this.additionalFor(path),
      noteProblem: (server, problem) => this.noteProblem(server, problem),
      serverForRoot: (config, root, binary, signal) => this.serverForRoot(config, root, binary, signal),
      lateDiagnosticsMs: options.lateDiagnosticsMs ?? 30_000,
      // Files seen on disk before a write (baselined or synced), so a first sync of others means "created".
      knownFiles: new Set<string>(),
      isOpen: (path) => this.running().some((server) => server.documents.get(path) !== undefined),
      reportBug: (error) => this.#background.report(error),
    };
  }

  /** The environment servers and checkers run with. */
  get env(): NodeJS.ProcessEnv {
    return this.#options.env ?? process.env;
  }

  /** How long a project checker may run. */
  get checkTimeoutMs(): number {
    return this.#options.checkTimeoutMs ?? 120_000;
  }

  /** How long a query waits for a server still building its index. */
  get indexWaitMs(): number {
    return this.#options.indexWaitMs ?? 30_000;
  }

  /** Whether the supervisor has been disposed. */
  get disposed(): boolean {
    return this.#disposed !== undefined;
  }

  /** The configurations that handle a file's extension, in order of preference. */
  configsFor(path: string): ServerConfig[] {
    return this.servers.filter((config) => handlesFile(config, path));
  }

  /**
   * Decides at call time whether a server can answer for a file: a root marker between the file and the
   * working directory, and the server's binary. The first configuration with both wins; otherwise the reason
   * names what is missing and where it was looked for.
   */
  resolve(path: string): Resolution {
    return resolveServer(path, {
      cwd: this.cwd,
      servers: this.servers,
      env: this.env,
      known: (config, root) => this.#entries.get(entryKey(config, root))?.binary,
    });
  }

  /**
   * The additional servers of a file (ESLint, Biome), decided at call time like {@link resolve}: those whose root
   * marker is found, each with its binary, or with the reason it cannot start (binary, or what it needs in the project).
   */
  additionalFor(path: string): AdditionalResolution[] {
    return resolveAdditional(path, {
      cwd: this.cwd,
      servers: this.servers,
      env: this.env,
      known: (config, root) => this.#entries.get(entryKey(config, root))?.binary,
    });
  }

  /** Records why a server did not diagnose the document it was last asked about (undefined: it did), for status. */
  noteProblem(server: LanguageServer, problem: string | undefined): void {
    if (problem === undefined) this.#problems.delete(server);
    else this.#problems.set(server, problem);
  }

  /**
   * The running server for a file, started (or restarted after a crash) on first use. Throws an
   * {@link LspError} saying what is missing when no server can answer.
   */
  async serverFor(path: string, signal?: AbortSignal): Promise<LanguageServer> {
    const resolution = this.resolve(path);
    if (!resolution.ok) throw new LspError(resolution.code, resolution.reason);
    return this.serverForRoot(resolution.config, resolution.root, resolution.binary, signal);
  }

  /** The running server of a configuration for a root, started on first use. */
  async serverForRoot(config: ServerConfig, root: string, binary: ResolvedCommand, signal?: AbortSignal): Promise<LanguageServer> {
    this.#assertAlive();
    const key = entryKey(config, root);
    let entry = this.#entries.get(key);
    if (!entry) {
      entry = { key, config, root, binary, server: undefined, starts: 0, crashes: [], lastFailure: undefined, crashReason: undefined };
      this.#entries.set(key, entry);
    }
    const current = entry.server;
    if (current && (current.state === 'running' || current.state === 'starting')) {
      await raceSignal(current.ready, signal);
      return current;
    }
    const window = this.#options.restartWindowMs ?? 300_000;
    const maxCrashes = this.#options.maxCrashes ?? 3;
    entry.crashes = entry.crashes.filter((at) => at > Date.now() - window);
    if (entry.crashes.length >= maxCrashes) {
      const label = current?.label ?? `${config.name} (root ${displayPath(root, this.cwd)})`;
      throw new LspError(
        'crash_loop',
        `${label} failed ${entry.crashes.length} times in the last ${Math.round(window / 60_000)} minutes (last: ${entry.lastFailure}); it is not restarted automatically. Call lsp with action "reload" to try again once the cause is fixed.`,
      );
    }
    const server = this.#launch(entry);
    await raceSignal(server.ready, signal);
    return server;
  }

  /** Servers that are running or starting. */
  running(): LanguageServer[] {
    return [...this.#entries.values()]
      .map((e) => e.server)
      .filter((s): s is LanguageServer => s !== undefined && (s.state === 'running' || s.state === 'starting'));
  }

  /** Notes for the model about what happened to servers since the last call (a crash and restart); taken once. */
  takeNotes(): string[] {
    return this.#notes.splice(0);
  }

  /**
   * Restarts the server for a file's root, or every server that has run when no file is given; resolves when
   * the new processes have initialized.
   */
  async reload(path?: string, signal?: AbortSignal): Promise<ReloadOutcome[]> {
    this.#assertAlive();
    let entries: Entry[];
    if (path) {
      const resolution = this.resolve(path);
      if (!resolution.ok) throw new LspError(resolution.code, resolution.reason);
      const key = entryKey(resolution.config, resolution.root);
      if (!this.#entries.has(key)) {
        this.#entries.set(key, {
          key,
          config: resolution.config,
          root: resolution.root,
          binary: resolution.binary,
          server: undefined,
          starts: 0,
          crashes: [],
          lastFailure: undefined,
          crashReason: undefined,
        });
      }
      entries = [this.#entries.get(key) as Entry];
      // The file's additional servers that have run (ESLint after its configuration was fixed) restart with it.
      for (const extra of this.additionalFor(path)) {
        const running = extra.ok ? this.#entries.get(entryKey(extra.config, extra.root)) : undefined;
        if (running?.server) entries.push(running);
      }
    } else {
      entries = [...this.#entries.values()].filter((e) => e.server !== undefined);
    }
    return Promise.all(
      entries.map(async (entry): Promise<ReloadOutcome> => {
        const previous = entry.server;
        const previousPid = previous?.state === 'running' || previous?.state === 'starting' ? previous.pid : undefined;
        await previous?.stop();
        entry.crashes = [];
        entry.crashReason = undefined;
        entry.lastFailure = undefined;
        const server = this.#launch(entry);
        try {
          await raceSignal(server.ready, signal);
          return { server: server.label, previousPid, pid: server.pid };
        } catch (error) {
          return { server: server.label, previousPid, pid: undefined, error: errorDetail(error) };
        }
      }),
    );
  }

  /** Every configured server: its instances, and for the working directory what it found and what is missing. */
  status(): ServerStatus[] {
    return this.servers.map((config): ServerStatus => {
      const roots = discoverRoots(this.cwd, config.rootMarkers);
      const lookup = findBinary({
        names: config.binaries,
        root: roots[0] ?? this.cwd,
        cwd: this.cwd,
        path: this.env['PATH'],
        ...(config.bundled ? { bundled: config.bundled } : {}),
      });
      const instances = [...this.#entries.values()]
        .filter((e) => e.config.id === config.id && (e.server || e.lastFailure))
        .map((e): InstanceStatus => {
          const server = e.server;
          return {
            root: displayPath(e.root, this.cwd),
            state: server?.state ?? 'stopped',
            pid: server?.state === 'running' || server?.state === 'starting' ? server.pid : undefined,
            uptimeMs: server ? Date.now() - server.startedAt : 0,
            openDocuments: server?.documents.all().length ?? 0,
            progress: server?.work.active.map(describeItem) ?? [],
            starts: e.starts,
            binary: e.binary.display,
            ...(e.lastFailure ? { lastFailure: e.lastFailure } : {}),
            ...(server && this.#problems.has(server) ? { problem: this.#problems.get(server) as string } : {}),
          };
        });
      const missing: Array<'root marker' | 'binary'> = [];
      if (roots.length === 0) missing.push('root marker');
      if (!lookup.found) missing.push('binary');
      const unmet = config.requires
        ? roots.flatMap((root) => {
            const reason = config.requires?.({ root, cwd: this.cwd });
            return reason ? [{ root: displayPath(root, this.cwd), reason }] : [];
          })
        : [];
      const companions = (config.companions ?? []).map((c) => {
        const found = findBinary({ names: [c.binary], root: this.cwd, cwd: this.cwd, path: this.env['PATH'] }).found;
        return { ...c, ...(found ? { found: found.display } : {}) };
      });
      return {
        role: config.role ?? 'primary',
        ...(companions.length ? { companions } : {}),
        ...(unmet.length ? { unmet } : {}),
        id: config.id,
        name: config.name,
        languages: config.languages,
        extensions: Object.keys(config.extensions),
        markers: config.rootMarkers,
        instances,
        roots: roots.map((r) => displayPath(r, this.cwd)),
        ...(lookup.found ? { binary: { path: lookup.found.display, source: lookup.found.source } } : {}),
        looked: lookup.found ? [] : lookup.looked,
        missing,
      };
    });
  }

  /** {@link DiagnosticsSource.check}: sync written files to their servers and wait for their diagnostics. */
  async check(files: readonly string[], options: CheckOptions): Promise<readonly FileCheck[]> {
    await applyConfigurationChanges(this.running(), files);
    return checkFiles(this.#checkHost, files, options, 'check');
  }

  /** {@link DiagnosticsSource.baseline}: the diagnostics existing files have before their first write. */
  baseline(files: readonly string[], options: CheckOptions): Promise<readonly FileCheck[]> {
    return checkFiles(this.#checkHost, files, options, 'baseline');
  }

  /** {@link DiagnosticsSource.dependents}: the files that import written ones, for their diagnostics after a write. */
  dependents(files: readonly string[], options: CheckOptions & { readonly max: number }): Promise<Dependents> {
    return findDependents(this.#checkHost, files, options);
  }

  /**
   * Tells `reporter` of a bug thrown outside any call (a handler of a server's notifications or requests, its exit);
   * the factory subscribes the run's `reportError`. Returns the function that stops telling it.
   */
  onBackgroundError(reporter: BackgroundReporter): () => void {
    return this.#background.subscribe(reporter);
  }

  /** Shuts every server down (shutdown/exit, then kill after the grace period). Safe to call twice. */
  dispose(): Promise<void> {
    this.#disposed ??= Promise.all([...this.#entries.values()].map((e) => e.server?.stop())).then(() => {
      this.#entries.clear();
    });
    return this.#disposed;
  }

  [Symbol.asyncDispose](): Promise<void> {
    return this.dispose();
  }

  #launch(entry: Entry): LanguageServer {
    // The server outlives the call that starts it: its callbacks must not inherit that call's file-lock holding.
    const server = outsideFileLocks(() => LanguageServer.launch({
      config: entry.config,
      root: entry.root,
      cwd: this.cwd,
      binary: entry.binary,
      limits: this.#limits,
      env: this.env,
      background: this.#background,
      onCrash: (crashed, reason) => {
        if (entry.server !== crashed) return;
        entry.crashes.push(Date.now());
        entry.lastFailure = reason;
        entry.crashReason = reason;
      },
    }));
    entry.server = server;
    entry.starts++;
    server.ready.then(
      () => {
        if (entry.crashReason && entry.server === server) {
          this.#note(`${server.label} had stopped unexpectedly (${entry.crashReason}); it was restarted for this call (new pid ${server.pid}). Files it had open were reopened as needed.`);
          entry.crashReason = undefined;
        }
      },
      (error: unknown) => {
        if (entry.server !== server || this.disposed) return;
        entry.crashes.push(Date.now());
        entry.lastFailure = errorDetail(error);
      },
    );
    return server;
  }

  #note(text: string): void {
    this.#notes.push(text);
    if (this.#notes.length > 20) this.#notes.shift();
  }

  #assertAlive(): void {
    if (this.#disposed) throw new LspError('disposed', 'The language-server supervisor has been disposed; this run has ended.');
  }
}

/** Creates the language-server supervisor of a run. Cheap: no process starts before the first use. */
export function createLspSupervisor(options: LspSupervisorOptions): LspSupervisor {
  return new LspSupervisor(options);
}

function entryKey(config: ServerConfig, root: string): string {
  return `${config.id}\u0000${root}`;
}

function mergeServers(custom: readonly ServerConfig[], builtins: boolean | readonly string[]): ServerConfig[] {
  const kept = Object.values(builtinServers).filter((config) =>
    builtins === true ? true : builtins === false ? false : builtins.includes(config.id),
  );
  const overridden = new Set(custom.map((c) => c.id));
  return [...custom, ...kept.filter((c) => !overridden.has(c.id))];
}
