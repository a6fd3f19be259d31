import { AgentToolsError, errorDetail } from '@agent-tools/core';
import type { DapEvent, DebugProtocol } from '../dap/protocol.js';
import type { AdapterProcess } from '../process/adapter-process.js';
import { configureBreakpoints } from './configure.js';
import type { Target, TargetRouter } from './router.js';
import type { ConfigurableSession, SessionSpec } from './types.js';

/** What child sessions need of the debug session they belong to. */
export interface ChildSessionHost {
  readonly spec: SessionSpec;
  readonly adapterId: string;
  /** Whether the debug session is ending: no child is opened then. */
  ending(): boolean;
  initializeArguments(): DebugProtocol.InitializeRequestArguments;
  /** A child session's event, in the shared number space, handled as the session's own. */
  deliver(event: DapEvent): void;
  /** A message for the next answer ("The js adapter warned: …"). */
  warn(text: string): void;
  /** A child session's connection closed (its process or worker is gone). */
  ended(target: Target): void;
}

/**
 * The child sessions of an adapter that announces each debug target with a `startDebugging` reverse request
 * (js-debug: every Node process and worker thread, also ones announced by a child session). Each is a connection of
 * its own to the adapter's port, configured like the first one before `configurationDone` lets its target run.
 */
export class ChildSessions {
  readonly #router: TargetRouter;
  readonly #process: AdapterProcess;
  readonly #host: ChildSessionHost;

  constructor(router: TargetRouter, process: AdapterProcess, host: ChildSessionHost) {
    this.#router = router;
    this.#process = process;
    this.#host = host;
  }

  /** Answers a reverse request of any of the adapter's sessions; `undefined` declines it. */
  reverseRequest(command: string, args: unknown): Promise<unknown> | undefined {
    if (command !== 'startDebugging' || this.#host.ending()) return undefined;
    void this.#open(args as DebugProtocol.StartDebuggingRequestArguments).catch((error: unknown) => {
      // A DebugError (the adapter refused, its socket closed) is only a warning; anything else is also a bug.
      if (!AgentToolsError.isInstance(error)) this.#host.spec.background.report(error);
      if (!this.#host.ending()) this.#host.warn(`could not open the child session it announced: ${errorDetail(error)}`);
    });
    // Answered at once: the adapter waits for the new connection, not for this answer.
    return Promise.resolve({});
  }

  async #open(args: DebugProtocol.StartDebuggingRequestArguments): Promise<void> {
    const { config } = this.#host.spec.selected;
    const { timeouts } = this.#host.spec;
    const connection = await this.#process.openConnection(
      {
        name: config.id,
        requestTimeoutMs: timeouts.requestMs,
        reverseRequest: (command, a) => this.reverseRequest(command, a),
        background: this.#host.spec.background,
      },
      timeouts.startMs,
    );
    const name = String((args.configuration as { name?: unknown }).name ?? `session ${this.#router.targets.length}`);
    const target = this.#router.add(name, connection);
    if (this.#host.ending()) {
      connection.close({ kind: 'ended' });
      return;
    }
    connection.onEvent((event) => this.#onEvent(target, event));
    connection.onClose(() => this.#host.ended(target));
    const initialized = new Promise<void>((resolve) => {
      const off = connection.onEvent((event) => {
        if (event.event !== 'initialized') return;
        off();
        resolve();
      });
    });
    target.capabilities = (await connection.request('initialize', this.#host.initializeArguments())) ?? {};
    const main = connection.request(args.request, args.configuration, { timeoutMs: timeouts.launchMs });
    // Awaited below; this only keeps its rejection (a DebugError) from being unhandled.
    main.catch(() => undefined);
    await Promise.race([initialized, main.then(() => delay(5000))]);
    await configureBreakpoints(this.#view(target));
    if (target.capabilities.supportsConfigurationDoneRequest) await connection.request('configurationDone', {});
    await main;
  }

  /** A child session as configure.ts sees a session: its own capabilities and requests, the shared breakpoints. */
  #view(target: Target): ConfigurableSession {
    const { spec } = this.#host;
    const router = this.#router;
    return {
      adapterId: this.#host.adapterId,
      capabilities: target.capabilities,
      spec,
      request: async (command, args, options = {}) => {
        const timed = { timeoutMs: spec.timeouts.requestMs, ...options };
        if (command !== 'setBreakpoints') return router.requestOn(target, command, args, timed);
        const entries = spec.book.get((args as DebugProtocol.SetBreakpointsArguments).source.path ?? '');
        const lines = (args as DebugProtocol.SetBreakpointsArguments).breakpoints ?? [];
        // The same breakpoint in every process keeps the id it already has, so a stop or a binding in any names it.
        const ids = lines.map((line) => entries.find((e) => e.line === line.line)?.id);
        const body = await router.requestOn(target, command, args, timed, ids);
        // A new process has not loaded the file yet: a breakpoint another session bound stays verified.
        const answered = (body as DebugProtocol.SetBreakpointsResponse['body'] | undefined)?.breakpoints ?? [];
        return {
          breakpoints: lines.map((line, i) => {
            const entry = entries.find((e) => e.line === line.line);
            const bp = answered[i];
            if (entry?.state === 'verified' && !bp?.verified) return { verified: true, ...(entry.id !== undefined ? { id: entry.id } : {}), line: entry.actualLine ?? entry.line };
            return bp ?? { verified: false };
          }),
        } as typeof body;
      },
    };
  }

  #onEvent(target: Target, event: DapEvent): void {
    // A child's own start and end are not the program's: the first session reports the program's end.
    if (event.event === 'initialized' || event.event === 'exited') return;
    if (event.event === 'terminated') {
      // The session ends now; its connection a moment later: js-debug sends the answer to the request that let the
      // process end (a `continue`) right after `terminated`, in the same write.
      this.#host.ended(target);
      setImmediate(() => target.connection.close({ kind: 'ended' }));
      return;
    }
    this.#host.deliver(this.#router.translateEvent(target, event));
  }
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
