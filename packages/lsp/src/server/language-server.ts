import { basename } from 'node:path';
import { AgentToolsError, errorDetail } from '@agent-tools/core';
import { BackgroundErrors } from '@agent-tools/core/internal';
import {
  DidChangeConfigurationNotification,
  DidChangeTextDocumentNotification,
  DidChangeWatchedFilesNotification,
  DidCloseTextDocumentNotification,
  DidOpenTextDocumentNotification,
  DidSaveTextDocumentNotification,
  ExecuteCommandRequest,
  ExitNotification,
  InitializedNotification,
  InitializeRequest,
  LogMessageNotification,
  PublishDiagnosticsNotification,
  type PublishDiagnosticsParams,
  type ServerCapabilities,
  ShowMessageNotification,
  ShutdownRequest,
  type TextDocumentSyncOptions,
} from 'vscode-languageserver-protocol';
import { languageOf } from '../config/file-match.js';
import type { BinaryRun, ServerConfig, ServerContext } from '../config/server-config.js';
import type { ResolvedCommand } from '../discovery/binary.js';
import { isLspError, LspError } from '../errors.js';
import { PositionMapper } from '../position/position-mapper.js';
import { runChecker } from '../project-check/run-checker.js';
import {
  type FramingLimits,
  type NotificationTypeLike,
  type RequestTypeLike,
  RpcConnection,
} from '../rpc/connection.js';
import { displayPath, fromUri, toUri } from '../util/paths.js';
import { CLIENT_CAPABILITIES } from './client-capabilities.js';
import { DocumentSync, type OpenDocument } from './documents.js';
import { InnerProcessWatch } from './inner-process.js';
import { describeExit, type ExitInfo, ServerProcess } from './process.js';
import { PublishedDiagnostics } from './published-diagnostics.js';
import { ServerDiagnostics } from './server-diagnostics.js';
import { ServerEvents, type ServerLogLine } from './server-events.js';
import { type ApplyEditHandler, answerServerRequest } from './server-requests.js';
import { withWorkDoneToken } from './work-done-token.js';
import { WorkProgress } from './work-progress.js';

/** Where a server is in its life. */
export type ServerState = 'starting' | 'running' | 'stopping' | 'stopped' | 'crashed';

/** Timeouts and bounds of one server. */
export interface ServerLimits {
  readonly requestTimeoutMs: number;
  readonly startTimeoutMs: number;
  readonly shutdownGraceMs: number;
  readonly maxOpenDocuments: number;
  /** Malformed messages tolerated within 10 s before the server is considered broken and killed. */
  readonly maxMalformed: number;
  readonly framing?: FramingLimits;
}

/** Everything needed to start one server for one root. */
export interface LanguageServerOptions {
  readonly config: ServerConfig;
  readonly root: string;
  readonly cwd: string;
  readonly binary: ResolvedCommand;
  readonly limits: ServerLimits;
  readonly env?: NodeJS.ProcessEnv;
  /** Where a bug in its handlers goes (a notification, a request of the server, its exit); the supervisor's. */
  readonly background?: BackgroundErrors;
  /** Called once when the process ends without being asked to. */
  readonly onCrash?: (server: LanguageServer, reason: string) => void;
}

export type { ServerLogLine } from './server-events.js';

/**
 * One running language server for one root: its process, its connection, the documents it has open and the
 * diagnostics it reported. Created by {@link LanguageServer.start}, which resolves once the server has
 * answered `initialize`.
 */
export class LanguageServer {
  readonly config: ServerConfig;
  readonly root: string;
  readonly cwd: string;
  readonly binary: ResolvedCommand;
  /** `typescript-language-server (root .)`: how messages name this server. */
  readonly label: string;
  readonly startedAt = Date.now();
  readonly documents: DocumentSync;
  readonly published = new PublishedDiagnostics();
  /** How this server's diagnostics are fetched for a document version. */
  readonly diagnostics: ServerDiagnostics;
  /** The work it reports as in progress (indexing, loading packages). */
  readonly work = new WorkProgress();
  /** Positions as this server counts lines, and back. */
  readonly positions: PositionMapper;
  readonly #options: LanguageServerOptions;
  readonly #process: ServerProcess;
  readonly #connection: RpcConnection;
  readonly #registrations = new Map<string, { method: string; options: unknown }>();
  readonly #log: ServerLogLine[] = [];
  /** Notifications and requests of the server's own protocol (`eslint/status`), for its configuration's problem reader. */
  readonly events = new ServerEvents();
  readonly #malformed: number[] = [];
  #capabilities: ServerCapabilities = {};
  #firstOpenAt: number | undefined;
  #applyEdit: ApplyEditHandler | undefined;
  #loaded = false;
  #onLoaded: (() => void) | undefined;
  #state: ServerState = 'starting';
  #endReason: string | undefined;
  #lastMalformed: string | undefined;
  #ended = false;
  /** Aborted when the server ends: what runs on its behalf (see {@link runBinary}) ends with it. */
  readonly #life = new AbortController();
  readonly #inner: InnerProcessWatch | undefined;
  readonly #background: BackgroundErrors;

  private constructor(options: LanguageServerOptions) {
    this.#options = options;
    this.config = options.config;
    this.root = options.root;
    this.cwd = options.cwd;
    this.binary = options.binary;
    this.label = `${options.config.name} (root ${displayPath(options.root, options.cwd)})`;
    const background = options.background ?? new BackgroundErrors();
    this.#background = background;
    this.#inner = options.config.innerProcess ? new InnerProcessWatch(options.config.innerProcess, () => this.#process.pid) : undefined;
    const context = { root: options.root, cwd: options.cwd, binary: options.binary };
    const prepared = options.config.prepareLaunch?.(context);
    this.#process = new ServerProcess({
      command: options.binary.command,
      args: [...options.binary.prefixArgs, ...options.config.args, ...(prepared?.args ?? [])],
      cwd: options.root,
      env: { ...(options.env ?? process.env), ...options.config.env },
    });
    this.#connection = new RpcConnection({
      name: this.label,
      input: this.#process.child.stdout,
      output: this.#process.child.stdin,
      ...(options.limits.framing ? { limits: options.limits.framing } : {}),
      onNotification: (method, params) => this.#onNotification(method, params),
      onRequest: (method, params) => this.#onRequest(method, params),
      onMalformed: (reason) => this.#onMalformed(reason),
      onBug: (error) => background.report(error),
    });
    this.documents = new DocumentSync(
      {
        open: (doc) => {
          this.#firstOpenAt ??= Date.now();
          this.notify(DidOpenTextDocumentNotification.type, {
            textDocument: { uri: doc.uri, languageId: doc.languageId, version: doc.version, text: doc.text },
          });
        },
        change: (doc) =>
          this.notify(DidChangeTextDocumentNotification.type, {
            textDocument: { uri: doc.uri, version: doc.version },
            contentChanges: [{ text: doc.text }],
          }),
        save: (doc) => {
          const save = this.#saveOptions();
          if (!save) return;
          this.notify(DidSaveTextDocumentNotification.type, {
            textDocument: { uri: doc.uri },
            ...(typeof save === 'object' && save.includeText ? { text: doc.text } : {}),
          });
        },
        close: (doc) => this.notify(DidCloseTextDocumentNotification.type, { textDocument: { uri: doc.uri } }),
        watched: (changes) => this.notify(DidChangeWatchedFilesNotification.type, { changes: [...changes] }),
        seq: () => this.published.seq,
      },
      (path) => languageOf(options.config, path) ?? Object.values(options.config.extensions)[0] ?? 'plaintext',
      options.limits.maxOpenDocuments,
      options.config.reopenAfterOtherChanges === true,
    );
    this.positions = new PositionMapper(options.config.extraLineBreaks ?? '', (path) => this.documents.get(path)?.text, options.config.stripsBomFromDisk);
    this.diagnostics = new ServerDiagnostics({
      positions: this.positions,
      config: this.config,
      label: this.label,
      cwd: this.cwd,
      capabilities: () => this.#capabilities,
      registrations: this.#registrations,
      published: this.published,
      request: (type, params, opts) => this.request(type, params, opts),
      executeCommand: (command, args, timeoutMs, signal) => this.executeCommand(command, args, timeoutMs, signal),
      assertRunning: (method) => this.#assertRunning(method),
    });
    background.watch(
      this.#process.exited.then((info) => {
        // The harness's cleanup may throw: the server's end is recorded all the same.
        try {
          prepared?.cleanup();
        } finally {
          this.#onExit(info);
        }
      }),
    );
    this.ready = this.#boot();
    // Every caller awaits `ready` itself; this only keeps a start nobody waited for from rejecting unhandled.
    this.ready.catch(() => {});
  }

  /**
   * Resolves once the server answered `initialize`. Rejects with `start_failed` when the process cannot be
   * spawned, exits early, or does not answer within the start timeout; the process is gone by then.
   */
  readonly ready: Promise<void>;

  async #boot(): Promise<void> {
    try {
      await this.#initialize();
      await this.#waitUntilLoaded();
    } catch (error) {
      // Everything the start awaits fails with an LspError; anything else is a bug of a configuration's hook
      // (`initializationOptions`, `settings`): answered as the failed start it is, and told to the harness too.
      const bug = !AgentToolsError.isInstance(error);
      if (bug) this.#background.report(error);
      await this.#process.kill(200);
      const exit = this.#process.exit;
      // After a bug the exit is our own kill, which says nothing: the bug's message is the reason.
      const timedOut = isLspError(error, 'timeout') || bug;
      const why =
        this.#state === 'stopped' || this.#state === 'stopping'
          ? 'it was stopped before it finished starting'
          : exit && !timedOut
            ? describeExit(exit, this.#process.stderrTail)
            : errorDetail(error);
      this.#endReason ??= why;
      throw new LspError('start_failed', `${this.label} could not be started: ${why}`, { cause: error });
    }
  }

  /**
   * Spawns the server and begins initializing it; {@link ready} tells when it can take requests. The instance
   * exists from the first moment so that a dispose during a slow start can still kill the process.
   */
  static launch(options: LanguageServerOptions): LanguageServer {
    return new LanguageServer(options);
  }

  /** Its state now; a running server whose inner process is gone is found crashed here too. */
  get state(): ServerState {
    const dead = this.#state === 'running' ? this.#inner?.check() : undefined;
    if (dead) this.#innerDied(dead);
    return this.#state;
  }

  get pid(): number | undefined {
    return this.#process.pid;
  }

  get capabilities(): ServerCapabilities {
    return this.#capabilities;
  }

  /**
   * Whether it has said it loaded the workspace (the configuration's `readyPattern`; always true without one).
   * Starting waits for that only so long; answers given before it are about part of the workspace.
   */
  get loaded(): boolean {
    return this.#loaded || this.config.readyPattern === undefined;
  }

  /** When the first document was opened with it (servers start indexing then). */
  get firstOpenAt(): number | undefined {
    return this.#firstOpenAt;
  }

  /** Why the server ended, once it has. */
  get endReason(): string | undefined {
    return this.#endReason;
  }

  /** The last lines the server logged, newest last. */
  get log(): readonly ServerLogLine[] {
    return this.#log;
  }

  /** The server's stderr tail. */
  get stderrTail(): string {
    return this.#process.stderrTail;
  }

  /** How many malformed messages it sent, and the last reason. */
  get malformed(): { count: number; last: string | undefined } {
    return { count: this.#malformed.length, last: this.#lastMalformed };
  }

  /** How long a request may take before it is reported as hung. */
  get requestTimeoutMs(): number {
    return this.#requestTimeout();
  }

  /** Sends a typed request with the server's timeout unless one is given. */
  async request<P, R>(type: RequestTypeLike<P, R>, params: P, options: { timeoutMs?: number; signal?: AbortSignal } = {}): Promise<R> {
    this.#assertRunning(type.method);
    const result = await this.#connection.request(type, withWorkDoneToken(type.method, params), {
      timeoutMs: options.timeoutMs ?? this.#requestTimeout(),
      ...(options.signal ? { signal: options.signal } : {}),
    });
    // An answer from a server whose inner process is gone is empty by default, not a fact: refuse it.
    const dead = this.#inner && (this.#inner.fromAnswer(result) ?? this.#inner.check());
    if (dead) {
      this.#innerDied(dead);
      throw new LspError(
        'server_exited',
        `${this.label} could not answer ${type.method}: ${dead}, so its answer would be empty whatever the code holds.`,
      );
    }
    return result;
  }

  /** Sends a typed notification (dropped silently when the server is gone). */
  notify<P>(type: NotificationTypeLike<P>, params: P): void {
    this.#connection.notify(type, params);
  }

  /** Runs a server command (`workspace/executeCommand`). */
  executeCommand(command: string, args: readonly unknown[], timeoutMs?: number, signal?: AbortSignal): Promise<unknown> {
    return this.request(ExecuteCommandRequest.type, { command, arguments: [...args] }, { ...(timeoutMs ? { timeoutMs } : {}), ...(signal ? { signal } : {}) });
  }

  /**
   * Runs the server's own binary with other arguments in its root and environment (Biome's `lint <file>`, to learn
   * whether its configuration ignores the file), under core's supervisor; undefined when it could not run in time.
   */
  async runBinary(args: readonly string[], timeoutMs: number, signal?: AbortSignal): Promise<BinaryRun | undefined> {
    const env = { ...(this.#options.env ?? process.env), ...this.config.env };
    // It ends with the server (its stop, its crash) at the latest.
    const stop = signal ? AbortSignal.any([signal, this.#life.signal]) : this.#life.signal;
    const outcome = await runChecker({ command: this.binary, args, title: `${this.binary.display} ${args.join(' ')}` }, this.root, timeoutMs, env, stop);
    return outcome.ok ? outcome.output : undefined;
  }

  /** Tells the harness of a bug met in this server's configuration's code (a hook that threw). */
  reportBug(error: unknown): void {
    this.#background.report(error);
  }

  /** Whether the server handles this file's extension. */
  handles(path: string): boolean {
    return languageOf(this.config, path) !== undefined;
  }

  /**
   * Syncs a file from disk and returns the open document (undefined when the file does not exist). Stale
   * documents written behind the server's back are re-synced first.
   */
  open(path: string, options: { created?: boolean } = {}): OpenDocument | undefined {
    this.#assertRunning('textDocument/didOpen');
    this.documents.refreshStale();
    return this.documents.sync(path, options).doc;
  }

  /** Asks the server to shut down, then makes sure the process is gone. Safe to call twice. */
  async stop(): Promise<void> {
    if (this.#state === 'stopped' || this.#state === 'crashed') {
      await this.#process.kill(0);
      return;
    }
    const wasRunning = this.#state === 'running';
    this.#state = 'stopping';
    const grace = this.#options.limits.shutdownGraceMs;
    if (wasRunning) {
      try {
        await this.#connection.request(ShutdownRequest.type, undefined, { timeoutMs: grace });
        this.#connection.notify(ExitNotification.type, undefined);
      } catch {
        // A server that does not answer shutdown is killed below.
      }
      this.#process.child.stdin.end();
    }
    if (!(await this.#process.waitForExit(wasRunning ? grace : 0))) await this.#process.kill(500);
    this.#end('stopped', 'it was stopped', `${this.label} was stopped.`, false);
  }

  async #initialize(): Promise<void> {
    const context = this.#context();
    const timeoutMs = this.config.startTimeoutMs ?? this.#options.limits.startTimeoutMs;
    const exited = this.#process.exited.then((info) => {
      throw new LspError('server_exited', describeExit(info, this.#process.stderrTail));
    });
    // Handled here, before anything can throw: a configuration hook that throws while the request is built leaves the
    // race unread, and the SIGTERM that follows must not become an unhandled rejection.
    exited.catch(() => {});
    const result = await Promise.race([
      this.#connection.request(
        InitializeRequest.type,
        {
          processId: process.pid,
          clientInfo: { name: 'agent-tools' },
          rootUri: toUri(this.root),
          rootPath: this.root,
          workspaceFolders: [{ uri: toUri(this.root), name: basename(this.root) }],
          initializationOptions: this.config.initializationOptions?.(context) ?? null,
          capabilities: CLIENT_CAPABILITIES,
        },
        { timeoutMs },
      ),
      exited,
    ]);
    this.#capabilities = result?.capabilities ?? {};
    this.#state = 'running';
    this.#connection.notify(InitializedNotification.type, {});
    const settings = this.config.settings?.(context);
    if (settings) this.#connection.notify(DidChangeConfigurationNotification.type, { settings });
  }

  /** Waits (bounded) for the configuration's "project loaded" log line; proceeds anyway when it does not come. */
  async #waitUntilLoaded(): Promise<void> {
    if (!this.config.readyPattern || this.#loaded) return;
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([
      new Promise<void>((resolve) => {
        this.#onLoaded = resolve;
      }),
      new Promise<void>((resolve) => {
        timer = setTimeout(resolve, this.config.readyTimeoutMs ?? 20_000);
      }),
      this.#process.exited.then(() => undefined),
    ]);
    clearTimeout(timer);
    this.#onLoaded = undefined;
  }

  #context(): ServerContext {
    return { root: this.root, cwd: this.cwd, binary: this.binary };
  }

  #requestTimeout(): number {
    return this.config.requestTimeoutMs ?? this.#options.limits.requestTimeoutMs;
  }

  #assertRunning(method: string): void {
    if (this.#state === 'running' || this.#state === 'starting') return;
    throw new LspError('server_exited', `${this.label} is not running (${this.#endReason ?? this.#state}); ${method} was not sent.`);
  }

  #saveOptions(): boolean | { includeText?: boolean } | undefined {
    const sync = this.#capabilities.textDocumentSync;
    if (sync === undefined || typeof sync === 'number') return undefined;
    return (sync as TextDocumentSyncOptions).save;
  }

  #onNotification(method: string, params: unknown): void {
    switch (method) {
      case PublishDiagnosticsNotification.method: {
        const { uri, version, diagnostics } = params as PublishDiagnosticsParams;
        const path = typeof uri === 'string' ? fromUri(uri) : undefined;
        if (path && Array.isArray(diagnostics)) this.published.record(path, typeof version === 'number' ? version : undefined, diagnostics);
        return;
      }
      case LogMessageNotification.method:
      case ShowMessageNotification.method: {
        const { type, message } = (params ?? {}) as { type?: number; message?: unknown };
        const line = String(message);
        this.#log.push({ type: type ?? 4, message: line.slice(0, 500) });
        const dead = this.#inner?.fromLog(line);
        if (dead) this.#innerDied(dead);
        if (!this.#loaded && this.config.readyPattern?.test(line)) {
          this.#loaded = true;
          this.#onLoaded?.();
          this.work.wake();
        }
        if (this.#log.length > 100) this.#log.splice(0, this.#log.length - 100);
        return;
      }
      case '$/progress':
        this.work.record(params);
        return;
      default:
        if (!isLspMethod(method)) this.events.record(method, params);
        return;
    }
  }

  #onRequest(method: string, params: unknown): unknown {
    if (!isLspMethod(method)) this.events.record(method, params);
    return answerServerRequest(method, params, {
      root: this.root,
      settings: () => this.config.settings?.(this.#context()) ?? {},
      registrations: this.#registrations,
      registered: () => this.published.poke(),
      applyEdit: this.#applyEdit,
    });
  }

  /**
   * Runs `work` (a server command) with `workspace/applyEdit` accepted through `apply`: a server applies a
   * command's edits by sending them back, and only while one of our commands runs are they taken.
   */
  async acceptingEdits<T>(apply: ApplyEditHandler, work: () => Promise<T>): Promise<T> {
    if (this.#applyEdit) throw new LspError('request_failed', `${this.label} is already running a command that edits files; try again when it is done.`);
    this.#applyEdit = apply;
    try {
      return await work();
    } finally {
      this.#applyEdit = undefined;
    }
  }

  /** The inner process is gone: the server can no longer answer, so it ends as a crash (and is restarted). */
  #innerDied(reason: string): void {
    if (this.#state !== 'running') return;
    this.#process.signal('SIGKILL');
    this.#end('crashed', reason, `${this.label} stopped answering: ${reason}.`, true);
  }

  #onMalformed(reason: string): void {
    const now = Date.now();
    this.#lastMalformed = reason;
    this.#malformed.push(now);
    while (this.#malformed.length > 0 && (this.#malformed[0] as number) < now - 10_000) this.#malformed.shift();
    if (this.#malformed.length > this.#options.limits.maxMalformed && this.#state === 'running') {
      const why = `it sent more than ${this.#options.limits.maxMalformed} malformed messages within 10 s (last: ${reason})`;
      // Stop listening at once: whatever else it sends cannot be trusted.
      this.#process.signal('SIGKILL');
      this.#end('crashed', why, `${this.label} was stopped: ${why}.`, true);
    }
  }

  #onExit(info: ExitInfo): void {
    const reason = this.#endReason ?? `it ${describeExit(info, this.#process.stderrTail)}`;
    const message = `${this.label} stopped while a request was in flight: ${reason}.`;
    // Exiting while stopping is the stop; while starting, the start's failure reports it; otherwise it crashed.
    if (this.#state === 'stopping' || this.#state === 'stopped') this.#end('stopped', reason, message, false);
    else this.#end('crashed', reason, message, this.#state !== 'starting');
  }

  /**
   * The one end of a server, however it comes (stop, exit, malformed output, a dead inner process): it alone sets
   * the final state and reason, fails every request in flight with `message`, forgets the open documents and the
   * work in progress, wakes whoever waits for diagnostics, and reports a crash to the supervisor. Only the first
   * call counts; a later one (the exit that follows a stop or a kill) changes nothing.
   */
  #end(state: 'stopped' | 'crashed', reason: string, message: string, crash: boolean): void {
    if (this.#ended) return;
    this.#ended = true;
    this.#life.abort();
    this.#state = state;
    this.#endReason ??= reason;
    this.#connection.close(new LspError('server_exited', message));
    this.documents.clear();
    this.work.clear();
    this.published.poke();
    if (crash) this.#options.onCrash?.(this, this.#endReason);
  }
}

/** Whether a method belongs to LSP itself rather than to a server's own protocol (`eslint/noLibrary`). */
function isLspMethod(method: string): boolean {
  return /^(?:\$|window|workspace|textDocument|client|telemetry|notebookDocument)\//.test(method);
}
