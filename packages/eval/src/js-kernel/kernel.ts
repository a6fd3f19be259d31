import { randomUUID } from 'node:crypto';
import process from 'node:process';
import { Publisher, Reply, Router } from 'zeromq';
import { BRIDGE_MARKER, type BridgeCall, type BridgeReply } from '../bridge.js';
import type { PartedReply } from '../bridge-transfer.js';
import { InterruptError, JsRuntime, type MimeBundle } from './runtime.js';
import { CellSyntaxError } from './transform.js';
import { type ConnectionInfo, decode, encode, type Header, header, KERNEL_PROTOCOL_VERSION, Signer, type WireMessage } from './wire.js';

type Socket = Router | Publisher | Reply;

/** zeromq 6 allows one send in progress per socket; this queues the rest. */
class Sender {
  #tail: Promise<void> = Promise.resolve();
  constructor(readonly socket: Socket) {}
  send(frames: Buffer[]): Promise<void> {
    this.#tail = this.#tail.then(
      () => this.socket.send(frames),
      () => this.socket.send(frames),
    );
    // A send that failed (the socket closed: the kernel is ending) must not stop the ones queued after it.
    return this.#tail.catch(() => undefined);
  }
}

/** A SIGINT arriving this soon after breakOnSigint stopped a cell is the same interrupt, seen a second time. */
const SIGINT_ECHO_MS = 250;

/**
 * eval's JavaScript kernel: the Jupyter messaging protocol over ZeroMQ (shell, control, iopub, stdin, heartbeat)
 * around a {@link JsRuntime}. It is small on purpose: one cell at a time, text/plain results, display(), the stdin
 * channel for the tool bridge, interrupts by signal or message, and shutdown.
 */
export class JsKernel {
  readonly #info: ConnectionInfo;
  readonly #signer: Signer;
  readonly #session = randomUUID();
  readonly #shell = new Router();
  readonly #control = new Router();
  readonly #stdin = new Router();
  readonly #iopub = new Publisher();
  readonly #hb = new Reply();
  readonly #senders = new Map<Socket, Sender>();
  readonly #runtime: JsRuntime;
  readonly #inputs = new Map<string, { resolve: (value: string) => void; reject: (error: unknown) => void }>();
  #executionCount = 0;
  #queue: Promise<void> = Promise.resolve();
  /** The request whose outputs are being published: the running cell's, or the last one's. */
  #parent: WireMessage | undefined;
  #running: WireMessage | undefined;
  #streams: { name: 'stdout' | 'stderr'; text: string }[] = [];
  #flushScheduled = false;
  #lastSyncInterrupt = 0;
  /** Set once a shutdown was answered: the exit that follows the reply. */
  #exit: NodeJS.Timeout | undefined;

  constructor(info: ConnectionInfo) {
    this.#info = info;
    this.#signer = new Signer(info.key, info.signature_scheme || 'hmac-sha256');
    for (const socket of [this.#shell, this.#control, this.#stdin, this.#iopub, this.#hb]) {
      this.#senders.set(socket, new Sender(socket));
    }
    this.#runtime = new JsRuntime({
      display: (data, metadata) => this.#publishDisplay(data, metadata),
      bridge: (calls) => this.#bridge(calls),
    });
  }

  /** Binds the sockets, captures stdout/stderr, and serves until shutdown. */
  async start(): Promise<void> {
    const address = (port: number): string => `${this.#info.transport}://${this.#info.ip}:${port}`;
    await Promise.all([
      this.#shell.bind(address(this.#info.shell_port)),
      this.#control.bind(address(this.#info.control_port)),
      this.#stdin.bind(address(this.#info.stdin_port)),
      this.#iopub.bind(address(this.#info.iopub_port)),
      this.#hb.bind(address(this.#info.hb_port)),
    ]);
    this.#captureStreams();
    // A rejection or throw nobody handles (a timer in an earlier cell) is reported, not fatal: the kernel's
    // state is the user's work.
    process.on('unhandledRejection', (reason) => {
      process.stderr.write(`Unhandled promise rejection: ${this.#runtime.describeError(reason).traceback.join('\n')}\n`);
    });
    process.on('uncaughtException', (error) => {
      process.stderr.write(`Uncaught exception: ${this.#runtime.describeError(error).traceback.join('\n')}\n`);
    });
    process.on('SIGINT', () => {
      if (Date.now() - this.#lastSyncInterrupt < SIGINT_ECHO_MS) return;
      this.#runtime.interrupt();
    });
    void this.#publish('status', { execution_state: 'starting' }, undefined);
    void this.#serve(this.#shell, (msg) => this.#onShell(msg));
    void this.#serve(this.#control, (msg) => this.#onControl(msg));
    void this.#serve(this.#stdin, (msg) => this.#onStdin(msg));
    void (async () => {
      for await (const frames of this.#hb) await this.#senders.get(this.#hb)?.send(frames);
    })();
  }

  async #serve(socket: Router, handle: (msg: WireMessage) => void): Promise<void> {
    for await (const frames of socket) {
      const msg = decode(frames, this.#signer);
      if (msg) handle(msg);
    }
  }

  #onShell(msg: WireMessage): void {
    if (msg.header.msg_type === 'execute_request') {
      this.#queue = this.#queue.then(() => this.#busy(msg, () => this.#execute(msg)));
      return;
    }
    void this.#busy(msg, async () => this.#answer(this.#shell, msg));
  }

  #onControl(msg: WireMessage): void {
    switch (msg.header.msg_type) {
      case 'interrupt_request':
        this.#runtime.interrupt();
        void this.#reply(this.#control, msg, 'interrupt_reply', { status: 'ok' });
        return;
      case 'shutdown_request':
        void this.#shutdown(this.#control, msg);
        return;
      default:
        void this.#answer(this.#control, msg);
    }
  }

  #onStdin(msg: WireMessage): void {
    if (msg.header.msg_type !== 'input_reply') return;
    const parent = (msg.parent_header as Partial<Header>).msg_id;
    const waiter = parent ? this.#inputs.get(parent) : undefined;
    if (!waiter || !parent) return;
    this.#inputs.delete(parent);
    waiter.resolve(String(msg.content['value'] ?? ''));
  }

  /** Answers the requests that need no cell: kernel info, completion stubs, history, comms. */
  async #answer(socket: Router, msg: WireMessage): Promise<void> {
    const type = msg.header.msg_type;
    const replyType = type.replace(/_request$/, '_reply');
    switch (type) {
      case 'kernel_info_request':
        return this.#reply(socket, msg, replyType, {
          status: 'ok',
          protocol_version: KERNEL_PROTOCOL_VERSION,
          implementation: 'agent-tools-javascript',
          implementation_version: '1.0',
          language_info: {
            name: 'javascript',
            version: process.versions.node,
            mimetype: 'application/javascript',
            file_extension: '.js',
          },
          banner: `agent-tools JavaScript kernel (Node ${process.versions.node})`,
          help_links: [],
        });
      case 'is_complete_request':
        return this.#reply(socket, msg, replyType, { status: 'complete' });
      case 'complete_request': {
        const cursor = Number(msg.content['cursor_pos'] ?? 0);
        return this.#reply(socket, msg, replyType, { status: 'ok', matches: [], cursor_start: cursor, cursor_end: cursor, metadata: {} });
      }
      case 'inspect_request':
        return this.#reply(socket, msg, replyType, { status: 'ok', found: false, data: {}, metadata: {} });
      case 'history_request':
        return this.#reply(socket, msg, replyType, { status: 'ok', history: [] });
      case 'comm_info_request':
        return this.#reply(socket, msg, replyType, { status: 'ok', comms: {} });
      case 'shutdown_request':
        return this.#shutdown(socket, msg);
      default:
        return;
    }
  }

  /**
   * The one end of the kernel, whichever channel asks (a client may send shutdown on control and on shell): each
   * request gets its reply, and the process exits once, after the first reply is out.
   */
  async #shutdown(socket: Router, msg: WireMessage): Promise<void> {
    await this.#reply(socket, msg, 'shutdown_reply', { status: 'ok', restart: Boolean(msg.content['restart']) });
    this.#exit ??= setTimeout(() => process.exit(0), 50);
  }

  async #busy(msg: WireMessage, work: () => Promise<void>): Promise<void> {
    await this.#publish('status', { execution_state: 'busy' }, msg);
    try {
      await work();
    } finally {
      await this.#publish('status', { execution_state: 'idle' }, msg);
    }
  }

  async #execute(msg: WireMessage): Promise<void> {
    const code = String(msg.content['code'] ?? '');
    const silent = Boolean(msg.content['silent']);
    const storeHistory = msg.content['store_history'] !== false && !silent;
    if (storeHistory) this.#executionCount++;
    const count = this.#executionCount;
    this.#parent = msg;
    this.#running = msg;
    if (!silent) await this.#publish('execute_input', { code, execution_count: count }, msg);
    try {
      const value = await this.#runtime.run(code, count);
      await this.#flushStreams();
      if (value !== undefined && !silent) {
        await this.#publish('execute_result', { execution_count: count, data: { 'text/plain': this.#runtime.inspect(value) }, metadata: {} }, msg);
      }
      await this.#reply(this.#shell, msg, 'execute_reply', { status: 'ok', execution_count: count, user_expressions: {}, payload: [] });
    } catch (thrown) {
      await this.#flushStreams();
      const error = this.#describe(thrown, code);
      await this.#publish('error', error, msg);
      await this.#reply(this.#shell, msg, 'execute_reply', { status: 'error', execution_count: count, ...error });
    } finally {
      this.#running = undefined;
      for (const [id, waiter] of this.#inputs) {
        this.#inputs.delete(id);
        waiter.reject(new InterruptError('The cell ended while waiting for input.'));
      }
    }
  }

  #describe(thrown: unknown, code: string): { ename: string; evalue: string; traceback: string[] } {
    if (thrown instanceof CellSyntaxError) {
      const source = code.split('\n')[thrown.line - 1] ?? '';
      return {
        ename: 'SyntaxError',
        evalue: thrown.message,
        traceback: [
          `SyntaxError: ${thrown.message} (line ${thrown.line})`,
          `  ${thrown.line} | ${source}`,
          `  ${' '.repeat(String(thrown.line).length)} | ${' '.repeat(thrown.column)}^`,
        ],
      };
    }
    if ((thrown as { code?: unknown } | null)?.code === 'ERR_SCRIPT_EXECUTION_INTERRUPTED') {
      this.#lastSyncInterrupt = Date.now();
      return { ename: 'KeyboardInterrupt', evalue: 'The cell was interrupted.', traceback: ['KeyboardInterrupt: The cell was interrupted.'] };
    }
    if (thrown instanceof InterruptError) {
      return { ename: 'KeyboardInterrupt', evalue: thrown.message, traceback: [`KeyboardInterrupt: ${thrown.message}`] };
    }
    return this.#runtime.describeError(thrown);
  }

  /** Sends the calls as one input_request on the stdin channel and waits for the host's input_reply. */
  async #bridge(calls: readonly BridgeCall[]): Promise<BridgeReply> {
    const running = this.#running;
    if (!running || running.content['allow_stdin'] === false) {
      throw new Error('tool() works only while a cell runs under a frontend that answers input requests (the eval tool).');
    }
    await this.#flushStreams();
    let reply = JSON.parse(await this.#ask(running, BRIDGE_MARKER + JSON.stringify({ calls }))) as BridgeReply & {
      error?: string;
      parted?: PartedReply;
    };
    if (reply.parted) {
      // A large reply travels in parts (a Jupyter server drops a websocket message over 10 MiB).
      const parts: string[] = [];
      for (let i = 0; i < reply.parted.parts; i++) parts.push(await this.#ask(running, BRIDGE_MARKER + JSON.stringify({ part: i })));
      const raw = parts.join('');
      if (raw.length !== reply.parted.length) throw new Error("the tool bridge's reply arrived incomplete; call again or ask for less");
      reply = JSON.parse(raw);
    }
    if (reply.error) throw new Error(reply.error);
    return reply;
  }

  /** Sends one input_request on the stdin channel and waits for its input_reply. */
  async #ask(running: WireMessage, prompt: string): Promise<string> {
    const request = header('input_request', this.#session);
    const answer = new Promise<string>((resolve, reject) => this.#inputs.set(request.msg_id, { resolve, reject }));
    await this.#senders.get(this.#stdin)?.send(
      encode({ identities: running.identities, header: request, parent_header: running.header, metadata: {}, content: { prompt, password: false } }, this.#signer),
    );
    return answer;
  }

  #publishDisplay(data: MimeBundle, metadata: Record<string, unknown>): void {
    void this.#flushStreams().then(() => this.#publish('display_data', { data, metadata, transient: {} }, this.#parent));
  }

  #captureStreams(): void {
    for (const name of ['stdout', 'stderr'] as const) {
      const stream = process[name];
      stream.write = ((chunk: unknown, encoding?: unknown, callback?: unknown): boolean => {
        const text = typeof chunk === 'string' ? chunk : Buffer.from(chunk as Uint8Array).toString('utf8');
        const last = this.#streams[this.#streams.length - 1];
        if (last?.name === name) last.text += text;
        else this.#streams.push({ name, text });
        if (!this.#flushScheduled) {
          this.#flushScheduled = true;
          setImmediate(() => void this.#flushStreams());
        }
        const done = typeof encoding === 'function' ? encoding : callback;
        if (typeof done === 'function') process.nextTick(done as () => void);
        return true;
      }) as typeof stream.write;
    }
  }

  async #flushStreams(): Promise<void> {
    this.#flushScheduled = false;
    const pending = this.#streams.splice(0);
    for (const { name, text } of pending) await this.#publish('stream', { name, text }, this.#parent);
  }

  async #publish(type: string, content: Record<string, unknown>, parent: WireMessage | undefined): Promise<void> {
    await this.#senders.get(this.#iopub)?.send(
      encode(
        {
          identities: [Buffer.from(`kernel.${this.#session}.${type}`)],
          header: header(type, this.#session),
          parent_header: parent?.header ?? {},
          metadata: {},
          content,
        },
        this.#signer,
      ),
    );
  }

  async #reply(socket: Router, msg: WireMessage, type: string, content: Record<string, unknown>): Promise<void> {
    await this.#senders.get(socket)?.send(
      encode({ identities: msg.identities, header: header(type, this.#session), parent_header: msg.header, metadata: {}, content }, this.#signer),
    );
  }
}
