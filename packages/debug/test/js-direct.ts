import { type ChildProcess, spawn } from 'node:child_process';
import { connect, type Socket } from 'node:net';
import { JS_DEBUG_SERVER } from './js-helpers.js';

/**
 * js-debug driven directly, as the reference the tool's answers are checked against: its DAP server, a connection
 * per session it announces (startDebugging), breakpoints set in each, and nothing of this package's code.
 */

// biome-ignore lint/suspicious/noExplicitAny: DAP bodies are read loosely here.
type Body = any;

class Connection {
  readonly #socket: Socket;
  #buffer = Buffer.alloc(0);
  #seq = 1;
  readonly #pending = new Map<number, (message: Body) => void>();
  readonly listeners = new Set<(message: Body) => void>();

  constructor(socket: Socket) {
    this.#socket = socket;
    socket.on('data', (chunk: Buffer) => {
      this.#buffer = Buffer.concat([this.#buffer, chunk]);
      for (;;) {
        const head = this.#buffer.indexOf('\r\n\r\n');
        if (head < 0) return;
        const length = Number(/Content-Length: (\d+)/i.exec(this.#buffer.subarray(0, head).toString())?.[1]);
        if (this.#buffer.length < head + 4 + length) return;
        const message = JSON.parse(this.#buffer.subarray(head + 4, head + 4 + length).toString());
        this.#buffer = this.#buffer.subarray(head + 4 + length);
        if (message.type === 'response') this.#pending.get(message.request_seq)?.(message);
        else for (const listener of [...this.listeners]) listener(message);
      }
    });
  }

  request(command: string, args?: unknown): Promise<Body> {
    const seq = this.#seq++;
    return new Promise((resolve, reject) => {
      this.#pending.set(seq, (message) => (message.success ? resolve(message.body) : reject(new Error(`${command}: ${message.message}`))));
      this.#send({ seq, type: 'request', command, arguments: args });
    });
  }

  reply(request: Body, body: unknown): void {
    this.#send({ seq: this.#seq++, type: 'response', request_seq: request.seq, command: request.command, success: true, body });
  }

  #send(message: unknown): void {
    const text = JSON.stringify(message);
    this.#socket.write(`Content-Length: ${Buffer.byteLength(text)}\r\n\r\n${text}`);
  }

  close(): void {
    this.#socket.destroy();
  }
}

/** What js-debug reported at the first stop, after one `next`, and for the expressions evaluated there. */
export interface DirectRun {
  readonly stop: { readonly name: string; readonly line: number; readonly path?: string; readonly reason: string };
  readonly callers: readonly { readonly name: string; readonly line: number }[];
  /** The variables of the scopes up to the function's own ("Block: …", "Local: …"), in order. */
  readonly locals: readonly { readonly scope: string; readonly name: string; readonly value: string; readonly type?: string }[];
  readonly evaluated: Readonly<Record<string, string>>;
  /** The children of the first local (not `this`) that has some. */
  readonly expanded?: { readonly name: string; readonly children: readonly { readonly name: string; readonly value: string; readonly type?: string }[] };
  readonly afterNext: { readonly name: string; readonly line: number };
}

/** Launches `program` under js-debug with one breakpoint, and reads the first stop. */
export async function driveDirectly(options: {
  program: string;
  args?: readonly string[];
  cwd: string;
  breakpoint: { readonly path: string; readonly line: number };
  expressions: readonly string[];
  runtimeArgs?: readonly string[];
}): Promise<DirectRun> {
  // Its own process group, so the debuggee it starts goes with it.
  const server: ChildProcess = spawn(process.execPath, [JS_DEBUG_SERVER, '0', '127.0.0.1'], { stdio: ['ignore', 'pipe', 'ignore'], detached: true });
  const connections: Connection[] = [];
  try {
    const port = await new Promise<number>((resolve) => {
      let seen = '';
      server.stdout?.on('data', (chunk: Buffer) => {
        seen += chunk.toString();
        const match = /listening at \S*?:(\d+)/.exec(seen);
        if (match) resolve(Number(match[1]));
      });
    });
    const open = async (): Promise<Connection> => {
      const socket = connect(port, '127.0.0.1');
      await new Promise((resolve) => socket.once('connect', resolve));
      const connection = new Connection(socket);
      connections.push(connection);
      return connection;
    };
    const init = { clientID: 'direct', adapterID: 'pwa-node', linesStartAt1: true, columnsStartAt1: true, pathFormat: 'path', supportsStartDebuggingRequest: true, supportsVariableType: true };
    let resolveStop: (value: { connection: Connection; body: Body }) => void = () => undefined;
    const firstStop = new Promise<{ connection: Connection; body: Body }>((resolve) => {
      resolveStop = resolve;
    });
    const configure = async (connection: Connection, launch: () => Promise<unknown>): Promise<void> => {
      const initialized = new Promise<void>((resolve) => connection.listeners.add((m) => m.event === 'initialized' && resolve()));
      connection.listeners.add((m) => {
        if (m.type === 'request' && m.command === 'startDebugging') {
          connection.reply(m, {});
          void open().then((child) => configure(child, () => child.request(m.arguments.request, m.arguments.configuration)));
        }
        if (m.event === 'stopped') resolveStop({ connection, body: m.body });
      });
      await connection.request('initialize', init);
      const launched = launch();
      await initialized;
      await connection.request('setBreakpoints', { source: { path: options.breakpoint.path }, breakpoints: [{ line: options.breakpoint.line }] });
      await connection.request('setExceptionBreakpoints', { filters: ['uncaught'] });
      await connection.request('configurationDone', {});
      await launched;
    };
    const root = await open();
    await configure(root, () =>
      root.request('launch', {
        type: 'pwa-node',
        request: 'launch',
        name: 'direct',
        program: options.program,
        args: options.args ?? [],
        cwd: options.cwd,
        runtimeArgs: options.runtimeArgs ?? [],
        __workspaceFolder: options.cwd,
        console: 'internalConsole',
        outputCapture: 'std',
        skipFiles: ['<node_internals>/**', '**/node_modules/**'],
      }),
    );
    const { connection, body } = await firstStop;
    const threadId = body.threadId;
    const stack = await connection.request('stackTrace', { threadId, startFrame: 0, levels: 4 });
    const [top, ...callers] = stack.stackFrames;
    const scopes = (await connection.request('scopes', { frameId: top.id })).scopes as Body[];
    const locals: { scope: string; name: string; value: string; type?: string }[] = [];
    let expandable: Body | undefined;
    for (const scope of scopes) {
      if (scope.expensive || !/^(Block|Local)\b/.test(scope.name)) break;
      const variables = (await connection.request('variables', { variablesReference: scope.variablesReference })).variables as Body[];
      for (const v of variables) {
        locals.push({ scope: scope.name, name: v.name, value: v.value, ...(v.type ? { type: v.type } : {}) });
        if (!expandable && v.name !== 'this' && v.variablesReference > 0) expandable = v;
      }
      if (/^Local\b/.test(scope.name)) break;
    }
    const expanded = expandable
      ? {
          name: expandable.name as string,
          children: ((await connection.request('variables', { variablesReference: expandable.variablesReference })).variables as Body[]).map((v) => ({
            name: v.name as string,
            value: v.value as string,
            ...(v.type ? { type: v.type as string } : {}),
          })),
        }
      : undefined;
    const evaluated: Record<string, string> = {};
    for (const expression of options.expressions) {
      evaluated[expression] = (await connection.request('evaluate', { expression, frameId: top.id, context: 'repl' })).result;
    }
    const next = new Promise<Body>((resolve) => connection.listeners.add((m) => m.event === 'stopped' && resolve(m.body)));
    await connection.request('next', { threadId });
    await next;
    const after = (await connection.request('stackTrace', { threadId, startFrame: 0, levels: 1 })).stackFrames[0];
    return {
      stop: { name: top.name, line: top.line, path: top.source?.path, reason: body.reason },
      callers: callers.map((f: Body) => ({ name: f.name, line: f.line })),
      locals,
      evaluated,
      ...(expanded ? { expanded } : {}),
      afterNext: { name: after.name, line: after.line },
    };
  } finally {
    for (const connection of connections) connection.close();
    try {
      process.kill(-(server.pid as number), 'SIGKILL');
    } catch {
      // Already gone.
    }
  }
}
