import { AgentToolsError, errorDetail } from '@agent-tools/core';
import { BackgroundErrors, formatLimit } from '@agent-tools/core/internal';
import type { Kernel, KernelMessage, ServerConnection } from '@jupyterlab/services';
import { EvalToolError } from '../errors.js';
import type { KernelLanguage } from '../language.js';
import { quietly, type Services } from './services.js';

/** A MIME bundle of a display_data or execute_result message. */
export type MimeBundle = Readonly<Record<string, unknown>>;

/** One output of a cell, in the order the kernel sent it. */
export type CellOutput =
  | {
      readonly type: 'stream';
      readonly name: 'stdout' | 'stderr';
      readonly text: string;
      /** Characters already cut out of the middle of `text` while the cell ran (a flood of output). */
      readonly cut?: number;
    }
  | { readonly type: 'display'; readonly data: MimeBundle; readonly metadata: Readonly<Record<string, unknown>> }
  | { readonly type: 'result'; readonly data: MimeBundle; readonly executionCount: number | null }
  | { readonly type: 'error'; readonly ename: string; readonly evalue: string; readonly traceback: readonly string[] }
  | { readonly type: 'clear' };

/** What a running cell reports to, and asks of, the code that runs it. */
export interface ExecuteHandlers {
  onOutput(output: CellOutput): void;
  /** Answers an input_request (the tool bridge, or a plain `input()`). */
  onInput(prompt: string, password: boolean): Promise<string>;
}

/** How a cell ended, from its execute_reply. */
export interface ExecuteReply {
  readonly status: 'ok' | 'error' | 'aborted';
  readonly executionCount: number | null;
}

/**
 * How a kernel is started.
 * @internal Left out of the published types: they would pull in @jupyterlab/services' own (which need React's).
 */
export interface StartKernelOptions {
  readonly services: Services;
  readonly settings: ServerConnection.ISettings;
  readonly kernelName: string;
  readonly language: KernelLanguage;
  /** Whether the server is the run's own or an environment's. */
  readonly where: 'local' | 'environment';
  readonly startTimeoutMs: number;
  /** Code run silently before the first cell (Python's helpers). */
  readonly prelude?: string;
  /** Aborted when the run ends: a start in progress fails at once instead of waiting out its timeout. */
  readonly signal?: AbortSignal;
  /**
   * Where a bug in a handler of the kernel's messages and events goes (services would only log it to the console),
   * and in a death listener: the kernel factory's, told to the runs.
   */
  readonly background?: BackgroundErrors;
}

/** Why a start in progress failed when its run ended. */
const RUN_ENDED = 'the run ended while it started';

const DEATH_STATES: ReadonlySet<string> = new Set(['dead', 'restarting', 'autorestarting']);

/**
 * One kernel on a Jupyter server, talked to through @jupyterlab/services: runs cells, answers input requests,
 * interrupts, notices when the kernel dies, and shuts it down. The server may restart a dead kernel by itself;
 * a session never reuses such a kernel (its state is gone), it reports the death and is replaced.
 */
export class KernelSession {
  readonly language: KernelLanguage;
  readonly where: 'local' | 'environment';
  readonly #kernel: Kernel.IKernelConnection;
  #death: string | undefined;
  /** The session's end once begun (see {@link #end}): every later shutdown or close shares it. */
  #ended: Promise<void> | undefined;
  readonly #deathListeners = new Set<(reason: string) => void>();
  readonly #deleteKernel: () => Promise<void>;
  readonly #background: BackgroundErrors;

  private constructor(
    kernel: Kernel.IKernelConnection,
    language: KernelLanguage,
    where: 'local' | 'environment',
    deleteKernel: () => Promise<void>,
    background: BackgroundErrors,
  ) {
    this.#kernel = kernel;
    this.language = language;
    this.where = where;
    this.#deleteKernel = deleteKernel;
    this.#background = background;
    kernel.statusChanged.connect(
      background.guard((_: unknown, status: Kernel.Status) => {
        if (DEATH_STATES.has(status)) this.markDead(`the ${language} kernel died (its process exited)`);
      }),
    );
    kernel.connectionStatusChanged.connect(
      background.guard((_: unknown, status: Kernel.ConnectionStatus) => {
        if (status === 'disconnected') this.markDead(`the connection to the ${language} kernel was lost`);
      }),
    );
  }

  /**
   * Starts a kernel, waits until it answers, and runs the prelude.
   * @internal Left out of the published types: they would pull in @jupyterlab/services' own (which need React's).
   */
  static async start(options: StartKernelOptions): Promise<KernelSession> {
    const { services, settings, kernelName, language, startTimeoutMs, signal } = options;
    // `path: ''` starts the kernel in the server's root directory; without a path the server uses its own
    // process's working directory, which for an environment's server may be anywhere.
    const starting = services.KernelAPI.startNew({ name: kernelName, path: '' } as { name: string }, settings);
    const model = await withTimeout(
      starting,
      startTimeoutMs,
      `the Jupyter server did not start the ${kernelName} kernel within ${formatLimit(startTimeoutMs)}`,
      signal,
    ).catch((error: unknown) => {
      // A kernel the server starts after we stopped waiting (timeout, end of the run) is nobody's: it is shut down
      // when it comes, instead of living on the server (an environment's outlives the run).
      starting.then((late) => services.KernelAPI.shutdownKernel(late.id, settings)).catch(() => {});
      // Everything this rejects with comes from outside: services (ServerConnection.NetworkError, a TypeError subclass
      // wrapping fetch's failure or our request timeout; ResponseError for an HTTP error status; an Error, or a
      // TypeError for a body that is null, from its validation of the model; a TypeError from fetch's Request for an
      // environment's malformed URL), the server's JSON (a SyntaxError), or our timeout. So it is only answered.
      throw new EvalToolError('kernel_start_failed', `Could not start the ${language} kernel "${kernelName}": ${errorDetail(error)}`, {
        cause: error,
      });
    });
    const background = options.background ?? new BackgroundErrors();
    // `background` goes to the subclass below (services' own options do not name it).
    const connectionOptions = { model, serverSettings: settings, handleComms: false, background };
    let kernel: Kernel.IKernelConnection;
    try {
      kernel = quietly(() => new (connectionClass(services))(connectionOptions));
    } catch (error) {
      // The kernel runs on the server but nothing here holds it: shut it down before the start fails.
      await services.KernelAPI.shutdownKernel(model.id, settings).catch(() => {});
      background.report(error);
      throw new EvalToolError('kernel_start_failed', `Could not start the ${language} kernel "${kernelName}": ${errorDetail(error)}`, { cause: error });
    }
    const session = new KernelSession(kernel, language, options.where, () => services.KernelAPI.shutdownKernel(model.id, settings), background);
    const ended = (): void => session.markDead(RUN_ENDED);
    signal?.addEventListener('abort', ended, { once: true });
    try {
      await withTimeout(kernel.info, startTimeoutMs, `the ${language} kernel did not answer within ${formatLimit(startTimeoutMs)}`, signal);
      if (options.prelude) {
        const failure: string[] = [];
        const reply = await session.execute(
          options.prelude,
          {
            onOutput: (output) => {
              if (output.type === 'error') failure.push(`${output.ename}: ${output.evalue}`);
            },
            onInput: async () => '',
          },
          { silent: true },
        );
        if (reply.status !== 'ok') throw new Error(`its setup code failed: ${failure.join('; ') || reply.status}`);
      }
      return session;
    } catch (error) {
      // When the run ended, the run's own server is being stopped and takes its kernels with it.
      if (signal?.aborted && options.where === 'local') session.close();
      else await session.shutdown();
      if (error instanceof EvalToolError) throw error;
      // Answered as the failed start either way; a bug of ours is also told (see isStartBug).
      if (isStartBug(error, services)) background.report(error);
      throw new EvalToolError('kernel_start_failed', `Could not start the ${language} kernel "${kernelName}": ${errorDetail(error)}`, {
        cause: error,
      });
    } finally {
      signal?.removeEventListener('abort', ended);
    }
  }

  /** The kernel's id on its server. */
  get id(): string {
    return this.#kernel.id;
  }

  /** Why the kernel is gone, once it is. */
  get deathReason(): string | undefined {
    return this.#death;
  }

  /** Calls `listener` once when the kernel dies (not when it is shut down). */
  onDeath(listener: (reason: string) => void): void {
    this.#deathListeners.add(listener);
  }

  /** Marks the kernel dead: running and later cells fail with `reason`. */
  markDead(reason: string): void {
    if (this.#death || this.#ended) return;
    this.#death = reason;
    for (const listener of this.#deathListeners) this.#background.guard(listener)(reason);
    this.#deathListeners.clear();
  }

  /**
   * Runs one cell. Resolves when the kernel has replied and gone idle; rejects with an {@link EvalToolError}
   * `kernel_died` when the kernel dies first.
   */
  async execute(code: string, handlers: ExecuteHandlers, options: { silent?: boolean } = {}): Promise<ExecuteReply> {
    if (this.#death) throw new EvalToolError('kernel_died', this.#death);
    const silent = options.silent ?? false;
    // stop_on_error would make ipykernel abort every execute request that reaches it while it still winds down
    // an error: the next cell, sent as soon as the failed one replied, could come back "aborted", never run. We
    // never queue a second cell behind a running one, so there is nothing for it to protect.
    const future = this.#kernel.requestExecute(
      { code, silent, store_history: !silent, allow_stdin: true, stop_on_error: false, user_expressions: {} },
      true,
    );
    // A bug handling a message goes to onError: services would only log it to the console and go on.
    future.onIOPub = this.#background.guard((msg: KernelMessage.IIOPubMessage) => {
      const output = toOutput(msg);
      if (output) handlers.onOutput(output);
    });
    future.onStdin = this.#background.guard((msg: KernelMessage.IStdinMessage) => {
      if (msg.header.msg_type !== 'input_request') return;
      const { prompt, password } = (msg as KernelMessage.IInputRequestMsg).content;
      const reply = (value: string): void => {
        if (!this.#death && !this.#kernel.isDisposed) {
          this.#kernel.sendInputReply({ status: 'ok', value }, (msg as KernelMessage.IInputRequestMsg).header);
        }
      };
      handlers.onInput(prompt, password).then(reply, (error: unknown) => {
        // An AgentToolsError is an answer (nobody to ask): the kernel gets an empty line. Anything else is a bug too.
        if (!AgentToolsError.isInstance(error)) this.#background.report(error);
        reply('');
      });
    });
    let onDeath: ((reason: string) => void) | undefined;
    const died = new Promise<never>((_, reject) => {
      onDeath = (reason) => reject(new EvalToolError('kernel_died', reason));
      this.#deathListeners.add(onDeath);
    });
    try {
      const reply = await Promise.race([future.done, died]);
      const content = reply.content as { status: ExecuteReply['status']; execution_count?: number | null };
      return { status: content.status, executionCount: content.execution_count ?? null };
    } catch (error) {
      if (this.#death) throw new EvalToolError('kernel_died', this.#death, { cause: error });
      throw error;
    } finally {
      if (onDeath) this.#deathListeners.delete(onDeath);
      // Its only rejection (kernel_died) was raced above, or is moot once the cell replied.
      died.catch(() => undefined);
    }
  }

  /** Asks the server to interrupt the kernel (SIGINT, or an interrupt_request for message-mode kernels). */
  async interrupt(): Promise<void> {
    if (this.#death || this.#kernel.isDisposed) return;
    await this.#kernel.interrupt();
  }

  /** Shuts the kernel down on its server and closes the connection; never throws. */
  shutdown(): Promise<void> {
    return this.#end('shutdown');
  }

  /** Closes the connection and leaves the kernel to its server (which is being stopped and shuts it down). */
  close(): void {
    void this.#end('close');
  }

  /**
   * The one end of a session, however it comes (a shutdown: reset, a death, dispose on an environment's server; a
   * close: the run's own server is stopping): the first call alone decides whether the kernel is deleted on its
   * server, and every later one waits for that same end instead of starting another or returning early. A death
   * is not an end: the server may be restarting the dead kernel, so it is still shut down.
   */
  #end(how: 'shutdown' | 'close'): Promise<void> {
    if (this.#ended) return this.#ended;
    // Set before any of the work: disposing the connection reports it lost, which must not read as a death.
    let finished!: () => void;
    this.#ended = new Promise((resolve) => {
      finished = resolve;
    });
    void this.#finish(how).finally(finished);
    return this.#ended;
  }

  async #finish(how: 'shutdown' | 'close'): Promise<void> {
    try {
      // A kernel the server declared dead is already gone from it; one the server restarted by itself is
      // reconnecting and must be deleted once it is back, or the server fails the request mid-restart.
      if (how === 'shutdown' && this.#kernel.status !== 'dead' && !this.#kernel.isDisposed) {
        if (this.#kernel.connectionStatus !== 'connected') await this.#connected(5000);
        await this.#deleteKernel();
      }
    } catch {
      // The server or the kernel is already gone: nothing is left to shut down.
    } finally {
      this.#kernel.dispose();
    }
  }

  /** Waits until a reconnect in progress has ended one way or the other, at most `ms`. */
  #connected(ms: number): Promise<void> {
    const signal = this.#kernel.connectionStatusChanged;
    return new Promise((resolve) => {
      const done = (): void => {
        clearTimeout(timer);
        signal.disconnect(onStatus);
        resolve();
      };
      const onStatus = (_: unknown, status: Kernel.ConnectionStatus): void => {
        if (status !== 'connecting') done();
      };
      const timer = setTimeout(done, ms);
      signal.connect(onStatus);
    });
  }
}

type ConnectionClass = Services['KernelConnection'];

const connectionClasses = new WeakMap<Services, ConnectionClass>();

/** The socket handler of services' KernelConnection, which it does not type. */
interface SocketHandling {
  _onWSMessage: (event: unknown) => void;
  _ws: { onmessage: unknown } | null;
}

/**
 * Whether a failure while a started kernel is brought up (its first answer, the prelude) is a bug in code rather
 * than one of the failures expected there. Expected: an AgentToolsError (`kernel_died`); services' own errors, which
 * are plain Errors ("Kernel is dead", "Kernel connection disconnected", "Could not send message", "Canceled future
 * for execute_request message before replies were done") or its ServerConnection errors (NetworkError is a TypeError);
 * and our plain Errors (the timeouts, the run ending, the setup code failing). What the engine throws for a mistake
 * in code, a TypeError, RangeError or ReferenceError, is none of these: such a failure is a bug, ours (or services').
 */
function isStartBug(error: unknown, services: Services): boolean {
  if (error instanceof services.ServerConnection.NetworkError || error instanceof services.ServerConnection.ResponseError) return false;
  return error instanceof TypeError || error instanceof RangeError || error instanceof ReferenceError;
}

/**
 * services' KernelConnection, except for two throws that would end the harness's process. The reconnect it starts by
 * itself after a server-side restart cannot reject unhandled: services does not await that promise, and when the
 * connection is closed before the reconnect finishes it rejects (expected, so dropped). And a message that fails
 * services' validation (a kernel sending a stream without text) is thrown out of the socket's message handler; here
 * it is dropped and told to `background` as the bug it is.
 */
function connectionClass(services: Services): ConnectionClass {
  let cls = connectionClasses.get(services);
  if (!cls) {
    cls = class extends services.KernelConnection {
      constructor(options: Kernel.IKernelConnection.IOptions & { readonly background?: BackgroundErrors }) {
        super(options);
        const background = options.background ?? new BackgroundErrors();
        const own = this as unknown as SocketHandling;
        const handle = own._onWSMessage;
        own._onWSMessage = (event) => {
          try {
            handle(event);
          } catch (error) {
            background.report(error);
          }
        };
        // The first socket was opened by the constructor with the unwrapped handler; later ones take the field.
        if (own._ws) own._ws.onmessage = own._onWSMessage;
      }

      override reconnect(): Promise<void> {
        // A reconnect cut short by closing the connection: expected (see above).
        return super.reconnect().catch(() => undefined);
      }
    };
    connectionClasses.set(services, cls);
  }
  return cls;
}

function toOutput(msg: KernelMessage.IIOPubMessage): CellOutput | undefined {
  switch (msg.header.msg_type) {
    case 'stream': {
      const { name, text } = (msg as KernelMessage.IStreamMsg).content;
      return { type: 'stream', name, text };
    }
    case 'display_data':
    case 'update_display_data': {
      const { data, metadata } = (msg as KernelMessage.IDisplayDataMsg).content;
      return { type: 'display', data, metadata };
    }
    case 'execute_result': {
      const { data, execution_count } = (msg as KernelMessage.IExecuteResultMsg).content;
      return { type: 'result', data, executionCount: execution_count };
    }
    case 'error': {
      const { ename, evalue, traceback } = (msg as KernelMessage.IErrorMsg).content;
      return { type: 'error', ename, evalue, traceback };
    }
    case 'clear_output':
      return { type: 'clear' };
    default:
      return undefined;
  }
}

/** Rejects with `message` when `promise` has not settled within `ms`, and at once when `signal` aborts. */
export function withTimeout<T>(promise: Promise<T>, ms: number, message: string, signal?: AbortSignal): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  let onAbort: (() => void) | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(message)), ms);
    onAbort = () => reject(new Error(RUN_ENDED));
    if (signal?.aborted) onAbort();
    else signal?.addEventListener('abort', onAbort, { once: true });
  });
  return Promise.race([promise, timeout]).finally(() => {
    clearTimeout(timer);
    if (onAbort) signal?.removeEventListener('abort', onAbort);
  });
}
