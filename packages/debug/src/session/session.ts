import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AgentToolsError, errorDetail } from '@agent-tools/core';
import { type CloseReason, describeAdapterClose, describeClose } from '../dap/close-reason.js';
import type { DapConnection, RequestOptions } from '../dap/connection.js';
import type { DapCommand, DapEvent, DapRequests, DebugProtocol } from '../dap/protocol.js';
import { DebugError, isDebugError } from '../errors.js';
import { type AdapterProcess, connectToServer, describeExit, startAdapter } from '../process/adapter-process.js';
import { ChildSessions } from './child-sessions.js';
import { configureBreakpoints } from './configure.js';
import { ATTACH_LISTEN_MS, nothingListens } from './nothing-listens.js';
import { OutputBuffer } from './output-buffer.js';
import { type Target, TargetRouter } from './router.js';
import { SourceFiles } from './source-files.js';
import { describeStartFailure } from './start-failure.js';
import type { EndInfo, SessionSpec, SessionState, StopInfo } from './types.js';

const CONSOLE_LIMIT = 8000;
/** Distinct warnings kept until an answer shows them; repeats of one are counted, not kept. */
const WARNINGS_KEPT = 20;

/**
 * One debug session: an adapter process, the DAP connection to it, and what the adapter has said (stops,
 * output, breakpoint verification, exit). Ending it, for whatever reason, kills every process it started.
 */
export class DebugSession {
  readonly spec: SessionSpec;
  readonly output = new OutputBuffer();
  /** Source files shown in answers, read once while unchanged. */
  readonly sources = new SourceFiles();
  capabilities: DebugProtocol.Capabilities = {};
  /** The debuggee's pid, when the adapter said (`process` event). */
  debuggeePid: number | undefined;
  /** Where the last snapshot found the program stopped ("app.py:12 in main"), until it moves. */
  stopLocation: { readonly path?: string; readonly line: number; readonly name: string } | undefined;
  /** Thread names from the last `threads` answer (the stop snapshot does not ask again). */
  readonly threadNames = new Map<number, string>();
  /** Output position at the last answer: the next snapshot shows what came after it. */
  reportedOutput = 0;

  #process: AdapterProcess | undefined;
  /** Set for an adapter with child sessions (js-debug): which DAP session each request goes to. */
  #router: TargetRouter | undefined;
  /** Opens the child sessions the adapter announces (set with #router). */
  #children: ChildSessions | undefined;
  #state: SessionState = 'starting';
  #stop: StopInfo | undefined;
  #lastThreadId: number | undefined;
  #exitCode: number | undefined;
  #console = '';
  /** What the adapter marked important (debugpy: a breakpoint condition that failed), not yet shown, with counts. */
  readonly #warnings = new Map<string, number>();
  #ending: Promise<EndInfo> | undefined;
  #end: EndInfo | undefined;
  #initialized = false;
  #pauseRequested = false;
  readonly #tempDir: string;
  readonly #waiters = new Set<() => void>();
  /** Variable references and frame ids handed out since the last stop: they die when the program moves. */
  readonly #live = { refs: new Set<number>(), frames: new Set<number>() };

  constructor(spec: SessionSpec) {
    this.spec = spec;
    this.#tempDir = mkdtempSync(join(tmpdir(), 'agent-tools-debug-'));
  }

  /**
   * Starts the adapter, sends the breakpoints at configuration time and launches or attaches. On failure
   * everything started is killed and the error says what the adapter said. A session ended meanwhile
   * (dispose during a launch) kills what it started and fails.
   */
  async begin(signal?: AbortSignal): Promise<void> {
    try {
      await this.#start(signal);
    } catch (error) {
      // What the start awaits fails with DebugErrors; anything else is a bug (ours, or an adapter configuration's hook
      // such as `launchArguments`): still answered as the failed start below, and told to the harness.
      if (!AgentToolsError.isInstance(error) && !signal?.aborted) this.spec.background.report(error);
      if (this.#ending) {
        await this.#ending;
        throw new DebugError('disposed', `The debug session was ended while it started (${describeEnd(this.#end)}).`, { cause: error });
      }
      let detail = errorDetail(error);
      const process = this.#process;
      const plainClose = process?.connection.closeReason?.kind === 'eof';
      if (process?.pid && plainClose && isDebugError(error, 'adapter_exited')) {
        // The stream closes a moment before the exit status is known; the status says more.
        const exit = await Promise.race([process.exited, delay(500).then(() => undefined)]);
        if (exit) detail = `${capitalize(describeExit(this.adapterId, exit))} while the session was starting.`;
      }
      const stderr = process?.stderrTail.trim();
      const { config, located, root } = this.spec.selected;
      // A cancelled start is no failure of the program or the adapter: the abort reason is the caller's own words.
      const described = signal?.aborted
        ? `it was cancelled before the program stopped (${errorDetail(signal.reason).trim().replace(/\.$/, '') || 'no reason given'}); its processes were stopped.`
        : describeStartFailure(detail, this.output, { buildDir: located.command.cwd ?? root, cwd: this.spec.cwd });
      await this.shutdown({ kind: 'failed', detail: described });
      if (signal?.aborted) throw signal.reason;
      throw new DebugError(
        isDebugError(error, 'adapter_start_failed') ? 'adapter_start_failed' : 'request_failed',
        `${described}${stderr && !described.includes(stderr) ? `\nThe ${config.id} adapter's stderr: ${stderr.slice(-800)}` : ''}`,
        { cause: error },
      );
    }
  }

  get adapterId(): string {
    return this.spec.selected.config.id;
  }

  get state(): SessionState {
    return this.#state;
  }

  /** The current stop, while stopped. */
  get stop(): StopInfo | undefined {
    return this.#state === 'stopped' ? this.#stop : undefined;
  }

  /** The thread of the last stop, for calls that name none. */
  get lastThreadId(): number | undefined {
    return this.#lastThreadId;
  }

  /** How the session ended, once it has fully ended (processes killed). */
  get end(): EndInfo | undefined {
    return this.#end;
  }

  /** Whether the session is ending or has ended. */
  get ending(): boolean {
    return this.#ending !== undefined;
  }

  /** The adapter's console messages (not the program's output), newest last. */
  get consoleText(): string {
    return this.#console;
  }

  /**
   * The adapter's important messages since the last call (debugpy reports a breakpoint condition that cannot be
   * evaluated only this way, once per hit, and does not stop), with how often each came; taking them clears them.
   */
  takeWarnings(): { readonly text: string; readonly count: number }[] {
    const taken = [...this.#warnings].map(([text, count]) => ({ text, count }));
    this.#warnings.clear();
    return taken;
  }

  /**
   * The pids of every live process this session started (adapter, launcher, debuggee), for checks that none
   * outlive it.
   */
  processIds(): number[] {
    return this.#process?.processIds() ?? [];
  }

  /** Resolves with the end once the session is over (immediately when it is). */
  whenEnded(): Promise<EndInfo> | undefined {
    return this.#ending;
  }

  /** A typed request to the adapter with the session's timeout. */
  request<C extends DapCommand>(command: C, args: DapRequests[C]['args'], options: RequestOptions = {}): Promise<DapRequests[C]['body']> {
    const connection = this.#connection();
    const timed = { timeoutMs: this.spec.timeouts.requestMs, ...options };
    return this.#router ? this.#router.request(command, args, timed) : connection.request(command, args, timed);
  }

  /** A thread's name: from the last `threads` answer, else the child session that owns it ("app.js [123]"). */
  threadName(threadId: number): string | undefined {
    return this.threadNames.get(threadId) ?? this.#router?.ownerOf(threadId)?.name;
  }

  /** The names of the child sessions running (js-debug: one per process and worker thread). */
  get childSessions(): string[] {
    return this.#router?.children.map((t) => t.name) ?? [];
  }

  /** Marks references and frame ids as handed out at this stop. */
  issue(kind: 'refs' | 'frames', id: number): void {
    if (id > 0 || kind === 'frames') this.#live[kind].add(id);
  }

  /** Whether a reference or frame id was handed out at the current stop. */
  isLive(kind: 'refs' | 'frames', id: number): boolean {
    return this.#live[kind].has(id);
  }

  /**
   * Waits until the program stops or the session ends, at most `ms`. Resolves with the state then:
   * `running` means it is still running.
   */
  settle(ms: number, signal?: AbortSignal): Promise<SessionState> {
    if (this.#state !== 'running' && this.#state !== 'starting') return Promise.resolve(this.#state);
    return new Promise((resolve) => {
      const done = (): void => {
        clearTimeout(timer);
        this.#waiters.delete(check);
        signal?.removeEventListener('abort', done);
        resolve(this.#state);
      };
      const check = (): void => {
        if (this.#state === 'stopped' || this.#state === 'ended') done();
      };
      const timer = setTimeout(done, ms);
      this.#waiters.add(check);
      signal?.addEventListener('abort', done, { once: true });
    });
  }

  /** Resumes the stopped program with `continue` or a step; the answer comes from {@link settle}. */
  async resume(command: 'continue' | 'next' | 'stepIn' | 'stepOut', threadId: number): Promise<void> {
    const previous = { state: this.#state, stop: this.#stop };
    const owner = this.#router?.ownerOf(threadId);
    // Mark it running before the request: some adapters send the next `stopped` before the response.
    this.#moved('running');
    try {
      await this.request(command, { threadId });
    } catch (error) {
      // A process that ran to its end when resumed takes its thread with it, and js-debug may then refuse the request
      // ("Unable to resume") or end the child session before answering: the request did its work, and the program
      // goes on in its other processes.
      if (owner && (owner.ended || this.#router?.ownerOf(threadId) !== owner) && !this.ending) return;
      if (this.#state === 'running' && !this.ending) {
        this.#state = previous.state;
        this.#stop = previous.stop;
      }
      throw error;
    }
  }

  /** Asks the adapter to pause a running thread; the answer comes from {@link settle}. */
  async pause(threadId: number): Promise<void> {
    this.#pauseRequested = true;
    await this.request('pause', { threadId });
  }

  /**
   * Ends the session: asks the adapter to disconnect (terminating a launched debuggee, leaving an attached
   * one running), then kills the adapter and everything it started. Idempotent; resolves when all is gone.
   */
  shutdown(info: EndInfo, disconnect = false): Promise<EndInfo> {
    this.#ending ??= this.#shutdown(info, disconnect);
    return this.#ending;
  }

  async #start(signal?: AbortSignal): Promise<void> {
    const { selected, mode, timeouts } = this.spec;
    const { config, located, root } = selected;
    if (mode === 'attach' && config.attach?.via === 'connect') {
      const port = this.spec.port as number;
      this.#process = await connectToServer(
        config.id,
        port,
        timeouts.requestMs,
        ATTACH_LISTEN_MS,
        (triedMs, error) => nothingListens(port, triedMs, error, config),
        this.spec.background,
      );
    } else {
      const transport = located.transport ?? config.transport;
      this.#process = await startAdapter({
        name: config.id,
        command: located.command,
        cwd: root,
        transport,
        background: this.spec.background,
        requestTimeoutMs: timeouts.requestMs,
        startTimeoutMs: timeouts.startMs,
        socketDir: this.#tempDir,
        onProcessOutput: (category, text) => {
          if (transport.kind !== 'stdio' && transport.programOutput === false) this.#console = (this.#console + text).slice(-CONSOLE_LIMIT);
          else this.output.append(text, category);
        },
        ...(config.childSessions ? { reverseRequest: (command: string, args: unknown) => this.#children?.reverseRequest(command, args) } : {}),
        ...(signal ? { signal } : {}),
      });
    }
    if (this.#ending) {
      // Ended while the adapter was starting: the shutdown did not see this process, so kill it here.
      await this.#process.kill();
      throw new DebugError('disposed', 'The debug session was ended while its adapter started.');
    }
    const connection = this.#process.connection;
    if (config.childSessions) {
      const router = new TargetRouter();
      const root = router.add(config.id, connection);
      this.#router = router;
      this.#children = new ChildSessions(router, this.#process, {
        spec: this.spec,
        adapterId: config.id,
        ending: () => this.#ending !== undefined,
        initializeArguments: () => this.#initializeArguments(),
        deliver: (event) => this.#onEvent(event),
        warn: (text) => this.#warn(text),
        ended: (target) => this.#childEnded(target),
      });
      connection.onEvent((event) => this.#onEvent(router.translateEvent(root, event)));
    } else {
      connection.onEvent((event) => this.#onEvent(event));
    }
    connection.onClose((reason) => this.spec.background.watch(this.#onClose(reason)));
    const initialized = this.#event('initialized');
    // Awaited in the race below; only a DebugError (the adapter closed) can reject it.
    initialized.catch(() => undefined);

    this.capabilities =
      (await this.request('initialize', this.#initializeArguments(),
        { ...(signal ? { signal } : {}) },
      )) ?? {};
    const rootTarget = this.#router?.targets[0];
    if (rootTarget) rootTarget.capabilities = this.capabilities;

    const requestArgs =
      mode === 'launch'
        ? config.launchArguments({
            program: this.spec.program as string,
            args: this.spec.args,
            root,
            tempDir: this.#tempDir,
            hints: located.hints ?? {},
            ...(this.spec.interpreter ? { interpreter: this.spec.interpreter } : {}),
          })
        : (config.attach?.arguments({ port: this.spec.port as number, host: '127.0.0.1', root, hints: located.hints ?? {} }) ?? {});
    // debugpy answers launch only after configurationDone, so the request is sent and awaited later.
    const main = this.request(mode, requestArgs, { timeoutMs: timeouts.launchMs, ...(signal ? { signal } : {}) });
    // Awaited after the configuration; this only keeps its rejection (a DebugError) from being unhandled until then.
    main.catch(() => undefined);
    await Promise.race([initialized, main.then(() => this.#event('initialized', 5000))]);

    await configureBreakpoints(this, signal ? { signal } : {});
    if (this.capabilities.supportsConfigurationDoneRequest) {
      await this.request('configurationDone', {}, signal ? { signal } : {});
    }
    await main;
    // A close while starting was left to this method (see #onClose): report it as a failed start.
    const closed = connection.closeReason;
    if (closed !== undefined && !this.#ending) {
      throw new DebugError('adapter_exited', `The ${config.id} adapter stopped right after the ${mode}: ${describeClose(closed)}.`);
    }
    if (this.#state === 'starting') this.#state = 'running';
    this.#process.snapshotTree();
  }

  /** A child session ended (its process or worker is gone): a stop in it is over. */
  #childEnded(target: Target): void {
    const router = this.#router as TargetRouter;
    const stoppedHere = this.#stop?.threadId !== undefined && router.ownerOf(this.#stop.threadId) === target;
    router.remove(target);
    if (stoppedHere && this.#state === 'stopped') this.#moved('running');
  }

  #initializeArguments(): DebugProtocol.InitializeRequestArguments {
    const { config } = this.spec.selected;
    return {
      clientID: 'agent-tools',
      clientName: 'agent-tools',
      adapterID: config.adapterId ?? config.id,
      locale: 'en',
      linesStartAt1: true,
      columnsStartAt1: true,
      pathFormat: 'path',
      supportsVariableType: true,
      supportsVariablePaging: true,
      supportsRunInTerminalRequest: false,
      supportsStartDebuggingRequest: config.childSessions === true,
      supportsProgressReporting: false,
      supportsInvalidatedEvent: false,
      supportsMemoryReferences: false,
    };
  }

  /** Resolves on the first `name` event (at once if `initialized` was already seen); rejects after `ms`. */
  #event(name: 'initialized', ms?: number): Promise<void> {
    if (this.#initialized) return Promise.resolve();
    return new Promise((resolve, reject) => {
      const connection = this.#connection();
      const timer = ms === undefined ? undefined : setTimeout(() => resolve(), ms);
      const off = connection.onEvent((event) => {
        if (event.event !== name) return;
        off();
        clearTimeout(timer);
        resolve();
      });
      connection.onClose((reason) => {
        clearTimeout(timer);
        reject(new DebugError('adapter_exited', `The ${this.adapterId} adapter stopped before it was ready: ${describeClose(reason)}.`));
      });
    });
  }

  #connection(): DapConnection {
    if (!this.#process) throw new DebugError('no_session', 'The debug adapter has not started.');
    return this.#process.connection;
  }

  #onEvent(event: DapEvent): void {
    switch (event.event) {
      case 'initialized':
        this.#initialized = true;
        break;
      case 'stopped': {
        const body = event.body;
        // lldb-dap pauses with SIGSTOP and reports that as an exception; after our pause it is the pause.
        const paused = this.#pauseRequested && (body.reason === 'pause' || /SIGSTOP/.test(`${body.description} ${body.text}`));
        this.#pauseRequested = false;
        this.#stop = {
          reason: paused ? 'pause' : body.reason,
          threadId: body.threadId ?? this.#lastThreadId,
          ...(body.description ? { description: body.description } : {}),
          ...(body.text ? { text: body.text } : {}),
          ...(body.hitBreakpointIds ? { hitBreakpointIds: body.hitBreakpointIds } : {}),
        };
        if (body.threadId !== undefined) this.#lastThreadId = body.threadId;
        for (const id of body.hitBreakpointIds ?? []) this.spec.book.markHit(id);
        this.#moved('stopped');
        // The tree is read from /proc (a fraction of a millisecond, more under load): after the stop's answer has
        // sent its first request, not before it.
        setImmediate(this.spec.background.guard(() => this.#process?.snapshotTree()));
        break;
      }
      case 'continued':
        if (this.#state === 'stopped' && (event.body.allThreadsContinued !== false || event.body.threadId === this.#stop?.threadId)) {
          this.#moved('running');
        }
        break;
      case 'exited':
        this.#exitCode = event.body.exitCode;
        break;
      case 'terminated':
        this.spec.background.watch(this.shutdown({ kind: 'exited', exitCode: undefined }, true));
        break;
      case 'output': {
        const { category } = event.body;
        const noise = this.spec.selected.config.outputNoise;
        const output = noise && (category === 'stdout' || category === 'stderr') ? event.body.output.replace(noise, '') : event.body.output;
        if (output === '') break;
        // Logpoint messages get a stream of their own, so they never land inside a line the program is printing:
        // delve sends them as program output with a source, lldb-dap as console text beside its own.
        if (category === 'stdout' || category === 'stderr') this.output.append(output, 'source' in event.body ? 'logpoint' : category);
        else if (category === 'console' && this.spec.selected.config.consoleLogpoints?.errorLines?.test(output)) this.#warn(output);
        else if (category === 'console' && this.#isConsoleLogpoint(output)) this.output.append(output, 'logpoint');
        else if (category === 'important') this.#warn(output);
        else if (category !== 'telemetry') this.#console = (this.#console + output).slice(-CONSOLE_LIMIT);
        break;
      }
      case 'breakpoint':
        this.spec.book.update(event.body.breakpoint);
        break;
      case 'process':
        this.debuggeePid = event.body.systemProcessId;
        // Only a launched debuggee ends with the session; an attached one was running before and is left running.
        if (this.spec.mode === 'launch') this.#process?.track(event.body.systemProcessId, this.spec.background);
        break;
      case 'thread':
        break;
    }
  }

  #warn(text: string): void {
    const message = text.trim();
    if (!message) return;
    const count = this.#warnings.get(message);
    if (count !== undefined) this.#warnings.set(message, count + 1);
    else if (this.#warnings.size < WARNINGS_KEPT) this.#warnings.set(message, 1);
  }

  /** Whether console text is a logpoint's message, for an adapter that prints them there (see `consoleLogpoints`). */
  #isConsoleLogpoint(text: string): boolean {
    const console = this.spec.selected.config.consoleLogpoints;
    return console !== undefined && !console.adapterLines.test(text) && this.spec.book.isLogpointMessage(text);
  }

  #moved(state: 'running' | 'stopped'): void {
    this.#state = state;
    this.stopLocation = undefined;
    if (state === 'running') this.#stop = undefined;
    this.#live.refs.clear();
    this.#live.frames.clear();
    for (const waiter of [...this.#waiters]) waiter();
  }

  async #onClose(reason: CloseReason): Promise<void> {
    // While starting, the failed request reports it and begin() ends the session as failed.
    if (this.#ending || this.#state === 'starting') return;
    const process = this.#process;
    // The stream usually closes a moment before the exit status is known: wait briefly for it.
    const exit = process?.pid ? await Promise.race([process.exited, delay(500).then(() => undefined)]) : undefined;
    if (this.#ending) return;
    // A plain close is best described by the exit status; a protocol fault by what went wrong.
    const how = exit && reason.kind === 'eof' ? describeExit(this.adapterId, exit) : describeAdapterClose(this.adapterId, reason);
    const stderr = process?.stderrTail.trim();
    this.spec.background.watch(this.shutdown({ kind: 'crashed', detail: `${how}${stderr ? `; its last stderr: ${stderr.slice(-600)}` : ''}` }));
  }

  async #shutdown(info: EndInfo, disconnect: boolean): Promise<EndInfo> {
    const process = this.#process;
    let end = info;
    if (process && (disconnect || info.kind === 'terminated' || info.kind === 'detached' || info.kind === 'expired' || info.kind === 'disposed')) {
      // A launched debuggee is terminated with the session; an attached one is left running.
      const terminateDebuggee = this.spec.mode === 'launch';
      await process.connection
        .request('disconnect', { terminateDebuggee, restart: false }, { timeoutMs: 2000 })
        // An adapter that does not answer (a DebugError) is killed below; anything else is also a bug to report.
        .catch((error: unknown) => {
          if (!AgentToolsError.isInstance(error)) this.spec.background.report(error);
        });
    }
    if (info.kind === 'exited') {
      // delve reports the exit status only as console text, after the disconnect above.
      const reported = this.#exitCode ?? parseExitStatus(this.#console);
      const names = this.#router?.targets.slice(1).map((t) => t.name) ?? [];
      end = { kind: 'exited', exitCode: reported ?? this.spec.selected.config.exitCode?.({ tempDir: this.#tempDir, sessionNames: names }) };
    }
    await process?.kill();
    rmSync(this.#tempDir, { recursive: true, force: true });
    this.spec.book.reset();
    this.#end = end;
    this.#state = 'ended';
    this.#stop = undefined;
    for (const waiter of [...this.#waiters]) waiter();
    return end;
  }
}

/** The exit status in an adapter's console text ("exited with status = 3", "has exited with status 3"). */
export function parseExitStatus(text: string): number | undefined {
  const matches = [...text.matchAll(/exited with status(?:\s*=)?\s*(-?\d+)/g)];
  const last = matches.at(-1)?.[1];
  return last === undefined ? undefined : Number(last);
}

function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

function describeEnd(end: EndInfo | undefined): string {
  return end ? end.kind : 'ending';
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
