import { connect, type Socket } from 'node:net';
import { basename, join } from 'node:path';
import type { Readable, Writable } from 'node:stream';
import { StringDecoder } from 'node:string_decoder';
import { errorDetail } from '@agent-tools/core';
import { BackgroundErrors, formatLimit, guardedInterval } from '@agent-tools/core/internal';
import { isLive, isStillRunning, readProcess, type SupervisedProcess, spawnSupervised, TrackedProcesses } from '@agent-tools/core/process';
import type { AdapterCommand, AdapterTransport } from '../adapters/adapter.js';
import { DapConnection, type DapConnectionOptions } from '../dap/connection.js';
import { DebugError } from '../errors.js';

/** How a process ended. */
export interface ExitInfo {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  /** Set when it could not be started at all. */
  readonly spawnError?: string;
}

/** What {@link startAdapter} needs. */
export interface StartAdapterOptions {
  readonly name: string;
  readonly command: AdapterCommand;
  readonly cwd: string;
  readonly transport: AdapterTransport;
  readonly requestTimeoutMs: number;
  /** How long a TCP adapter may take to print where it listens. */
  readonly startTimeoutMs: number;
  /** The session's private folder, where an adapter with a `socket` transport listens. */
  readonly socketDir?: string;
  /** Output of the adapter process that is not DAP (a TCP adapter's stdout carries the debuggee's output). */
  readonly onProcessOutput?: (category: 'stdout' | 'stderr', text: string) => void;
  /** Answers the adapter's reverse requests (see {@link DapConnectionOptions.reverseRequest}). */
  readonly reverseRequest?: DapConnectionOptions['reverseRequest'];
  /** Where bugs in the adapter's handlers outside any call go (see {@link DapConnectionOptions.background}). */
  readonly background?: BackgroundErrors;
  readonly signal?: AbortSignal;
}

/** Where a TCP or local-socket adapter listens. */
export type ListenAddress = { readonly port: number } | { readonly path: string };

const STDERR_TAIL = 4000;
/** How often the launched debuggee is checked for its end. */
const DEBUGGEE_POLL_MS = 200;
/** Longest local socket path that every platform accepts (Linux takes 107 bytes, macOS 103). */
const MAX_SOCKET_PATH = 100;

/**
 * A running adapter process and the DAP connection to it. It runs under core's process supervisor, so
 * {@link AdapterProcess.kill} ends the adapter and everything below it (launcher, debuggee, the debuggee's
 * forks, even ones that left its process group), and so does a harness that dies without disposing.
 */
export class AdapterProcess {
  readonly connection: DapConnection;
  /** Resolves when the process has exited. */
  readonly exited: Promise<ExitInfo>;
  readonly #tree: SupervisedProcess | undefined;
  /** Processes reported by the adapter (the debuggee) that are not below it, such as an attached one. */
  readonly #outside = new TrackedProcesses();
  #exit: ExitInfo | undefined;
  /** Polls for the end of the launched debuggee. */
  #watch: NodeJS.Timeout | undefined;

  /** The TCP connection, destroyed on kill: ending it only half-closes it, and a peer that never closes its side keeps it open. */
  readonly #socket: Socket | undefined;
  /** Where a TCP or local-socket adapter listens; further sessions (js-debug's child sessions) connect there too. */
  readonly address: ListenAddress | undefined;
  /** Connections opened beside the first one, destroyed on kill. */
  readonly #extra = new Set<{ socket: Socket; connection: DapConnection }>();

  constructor(connection: DapConnection, tree: SupervisedProcess | undefined, exited: Promise<ExitInfo>, socket?: Socket, address?: ListenAddress) {
    this.connection = connection;
    this.#socket = socket;
    this.address = address;
    this.#tree = tree;
    this.exited = exited.then((info) => {
      this.#exit = info;
      return info;
    });
  }

  /** The adapter's pid (none when `attach` connected to a server it did not start). */
  get pid(): number | undefined {
    return this.#tree?.pid;
  }

  /** How the process ended, once it has. */
  get exit(): ExitInfo | undefined {
    return this.#exit;
  }

  /** The last few KiB the adapter wrote to stderr, for crash reports. */
  get stderrTail(): string {
    return this.#tree?.stderrTail ?? '';
  }

  /**
   * Records a process the adapter reported (the debuggee's pid from a `process` event) to end with the session.
   * When it is one this adapter started and it exits, what it left behind (a helper it forked, now adopted by the
   * keeper) is ended: debugpy's launcher waits for the debuggee's output pipes before it reports the exit, and a
   * helper holding them would keep the session running forever.
   */
  track(pid: number | undefined, background: BackgroundErrors): void {
    if (!this.#tree) {
      this.#outside.track(pid);
      return;
    }
    this.#tree.track(pid);
    const debuggee = pid === undefined ? undefined : readProcess(pid);
    if (!isLive(debuggee) || this.#watch) return;
    const tree = this.#tree;
    // Reading /proc raises nothing expected here (a process that is gone reads as not running): a throw is a bug, told
    // once on the session's background path, and the polling stops (the session's end still ends every process).
    this.#watch = guardedInterval(
      () => {
        if (isStillRunning(debuggee)) return;
        clearInterval(this.#watch);
        background.watch(tree.endOrphans(500));
      },
      DEBUGGEE_POLL_MS,
      (error) => background.report(error),
    );
  }

  /** The pids of every live process of the session: the adapter's tree and the processes it reported. */
  processIds(): number[] {
    const pids = new Set((this.#tree?.processes() ?? []).map((entry) => entry.pid));
    for (const entry of this.#outside.alive()) pids.add(entry.pid);
    return [...pids];
  }

  /** Records the adapter's current process tree (call after launch and at each stop). */
  snapshotTree(): void {
    this.#tree?.processes();
  }

  /**
   * Opens another DAP connection to the same listening adapter (js-debug serves each debug target it announces with
   * `startDebugging` as a session of its own where it listens). It is closed with the adapter.
   */
  async openConnection(options: DapConnectionOptions, timeoutMs: number): Promise<DapConnection> {
    if (this.address === undefined) throw new DebugError('adapter_start_failed', `The ${options.name} adapter does not listen on a port or socket, so it cannot serve another session.`);
    const socket = await connectSocket(this.address, timeoutMs, options.name);
    const connection = new DapConnection(socket, socket, options);
    const entry = { socket, connection };
    this.#extra.add(entry);
    connection.onClose(() => {
      socket.destroy();
      this.#extra.delete(entry);
    });
    void this.exited.then((info) => connection.close({ kind: 'exited', detail: describeExit(options.name, info) }));
    return connection;
  }

  /**
   * Kills the adapter and every process it started: SIGTERM to all of them, then SIGKILL to whatever is left
   * after `graceMs`. Resolves when they are gone (or after a last wait).
   */
  async kill(graceMs = 500): Promise<void> {
    clearInterval(this.#watch);
    this.connection.close({ kind: 'ended' });
    this.#socket?.destroy();
    for (const { socket, connection } of [...this.#extra]) {
      connection.close({ kind: 'ended' });
      socket.destroy();
    }
    await Promise.all([this.#tree?.stop(graceMs), this.#outside.stop(graceMs)]);
  }
}

/** Starts an adapter and connects to it over stdio, TCP or a local socket. */
export async function startAdapter(options: StartAdapterOptions): Promise<AdapterProcess> {
  const { command, name, transport } = options;
  const socketPath = transport.kind === 'socket' ? localSocketPath(name, options.socketDir) : undefined;
  const tree = spawnSupervised({
    command: command.command,
    args: transport.kind === 'socket' ? [...command.args, ...transport.listenArgs(socketPath as string)] : command.args,
    cwd: command.cwd ?? options.cwd,
    env: { ...process.env, ...command.env },
    stderrTail: STDERR_TAIL,
    graceMs: 500,
  });
  const exited: Promise<ExitInfo> = tree.exited;
  const stdout = tree.stdout as Readable;
  const stderr = tree.stderr as Readable;
  const stdin = tree.stdin as Writable;
  // A listening adapter may print where it listens at once: listen before anything is awaited.
  const listening = transport.kind === 'stdio' ? undefined : waitForListening(tree, transport.listening, options, exited);
  // Awaited below; this only keeps its rejection (a DebugError) from being unhandled while the start waits.
  listening?.catch(() => undefined);
  try {
    const early = await Promise.race([exited, delay(0).then(() => undefined)]);
    if (early?.spawnError) throw new Error(early.spawnError);
    if (!listening) {
      const connection = new DapConnection(stdout, stdin, connectionOptions(options));
      void exited.then((info) => connection.close({ kind: 'exited', detail: describeExit(name, info) }));
      return new AdapterProcess(connection, tree, exited);
    }
    const heard = await listening;
    const address: ListenAddress = socketPath !== undefined ? { path: socketPath } : { port: Number(heard) };
    // One decoder per stream: a chunk may end inside a multi-byte character, which the next chunk completes.
    const out = new StringDecoder('utf8');
    const err = new StringDecoder('utf8');
    const background = options.background ?? new BackgroundErrors();
    stdout.on('data', background.guard((chunk: Buffer) => options.onProcessOutput?.('stdout', out.write(chunk))));
    stderr.on('data', background.guard((chunk: Buffer) => options.onProcessOutput?.('stderr', err.write(chunk))));
    const socket = await connectSocket(address, options.startTimeoutMs, name);
    const connection = new DapConnection(socket, socket, connectionOptions(options));
    void exited.then((info) => connection.close({ kind: 'exited', detail: describeExit(name, info) }));
    return new AdapterProcess(connection, tree, exited, socket, address);
  } catch (error) {
    await tree.stop(0);
    if (error instanceof DebugError) throw error;
    const detail = errorDetail(error);
    throw new DebugError('adapter_start_failed', `The ${name} adapter could not be started (${command.command}): ${detail.replace(/\.$/, '')}.`, {
      cause: error,
    });
  }
}

function connectionOptions(options: StartAdapterOptions): DapConnectionOptions {
  return {
    name: options.name,
    requestTimeoutMs: options.requestTimeoutMs,
    ...(options.reverseRequest ? { reverseRequest: options.reverseRequest } : {}),
    ...(options.background ? { background: options.background } : {}),
  };
}

/**
 * Connects to a DAP server that is already listening (a `debugpy --listen` debuggee, a headless delve). A
 * refused connection is retried for a few seconds: the model often starts the debuggee and attaches at once.
 */
export async function connectToServer(
  name: string,
  port: number,
  requestTimeoutMs: number,
  retryMs = 2000,
  nothingListens?: (triedMs: number, error: string) => Error,
  background?: BackgroundErrors,
): Promise<AdapterProcess> {
  const started = Date.now();
  const deadline = started + retryMs;
  let socket: Socket | undefined;
  while (!socket) {
    try {
      socket = await connectSocket({ port }, 5000, name);
    } catch (error) {
      if (Date.now() >= deadline && refused(error) && nothingListens) throw nothingListens(Date.now() - started, 'ECONNREFUSED');
      if (Date.now() >= deadline || !refused(error)) throw error;
      await delay(100);
    }
  }
  const connection = new DapConnection(socket, socket, { name, requestTimeoutMs, ...(background ? { background } : {}) });
  const exited = new Promise<ExitInfo>((resolve) => socket.once('close', () => resolve({ code: null, signal: null })));
  return new AdapterProcess(connection, undefined, exited, socket);
}

/** One sentence on how an adapter process ended. */
export function describeExit(name: string, info: ExitInfo): string {
  if (info.signal) return `the ${name} adapter was killed by ${info.signal}`;
  if (info.code === null) return `the ${name} adapter could not run`;
  return `the ${name} adapter exited with code ${info.code}`;
}

/**
 * The path of a local socket in the session's folder (a named pipe named after it on Windows). A path too long for
 * a socket is refused with what to do, before the adapter starts.
 */
function localSocketPath(name: string, dir: string | undefined): string {
  if (dir === undefined) throw new DebugError('adapter_start_failed', `The ${name} adapter listens on a local socket, but the session has no folder for it.`);
  if (process.platform === 'win32') return `\\\\.\\pipe\\${basename(dir)}-dap`;
  const path = join(dir, 'dap.sock');
  if (Buffer.byteLength(path) > MAX_SOCKET_PATH) {
    throw new DebugError(
      'adapter_start_failed',
      `The ${name} adapter listens on a local socket in the session's temporary folder, and its path (${path}) is longer than the ${MAX_SOCKET_PATH} bytes a socket path may have. Set TMPDIR to a shorter folder (such as /tmp) and launch again.`,
    );
  }
  return path;
}

/** Waits for the adapter to say it listens: resolves with the first group of `pattern` (the port), or the whole match. */
async function waitForListening(tree: SupervisedProcess, pattern: RegExp, options: StartAdapterOptions, exited: Promise<ExitInfo>): Promise<string> {
  let seen = '';
  let onData: ((chunk: Buffer) => void) | undefined;
  const found = new Promise<string>((resolve, reject) => {
    onData = (chunk: Buffer) => {
      seen += chunk.toString('utf8');
      let match: RegExpExecArray | null;
      try {
        match = pattern.exec(seen);
      } catch (error) {
        // The pattern is the adapter configuration's (a harness's own): a throw here would escape the stream's data
        // handler and end the process. It is a bug, told as such, and the start fails with it at once.
        (options.background ?? new BackgroundErrors()).report(error);
        reject(error);
        return;
      }
      if (match) resolve(match[1] ?? match[0]);
    };
    tree.stdout?.on('data', onData);
    tree.stderr?.on('data', onData);
  });
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([
      found,
      exited.then((info) =>
        Promise.reject(
          new DebugError(
            'adapter_start_failed',
            `${capitalize(describeExit(options.name, info))} before it listened.${tail(tree.stderrTail || seen)}`,
          ),
        ),
      ),
      new Promise<never>((_, reject) => {
        timer = setTimeout(
          () => reject(new DebugError('adapter_start_failed', `The ${options.name} adapter did not say where it listens within ${formatLimit(options.startTimeoutMs)}.${tail(seen)}`)),
          options.startTimeoutMs,
        );
      }),
    ]);
  } finally {
    clearTimeout(timer);
    if (onData) {
      tree.stdout?.off('data', onData);
      tree.stderr?.off('data', onData);
    }
  }
}

function connectSocket(address: ListenAddress, timeoutMs: number, name: string): Promise<Socket> {
  const where = 'path' in address ? address.path : `127.0.0.1:${address.port}`;
  return new Promise<Socket>((resolve, reject) => {
    const socket = 'path' in address ? connect({ path: address.path }) : connect({ port: address.port, host: '127.0.0.1' });
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new DebugError('adapter_start_failed', `Could not connect to the ${name} debug server on ${where} within ${formatLimit(timeoutMs)}.`));
    }, timeoutMs);
    socket.once('connect', () => {
      clearTimeout(timer);
      socket.setNoDelay(true);
      resolve(socket);
    });
    socket.once('error', (error) => {
      clearTimeout(timer);
      reject(new DebugError('adapter_start_failed', `Could not connect to the ${name} debug server on ${where}: ${error.message}.`, { cause: error }));
    });
  });
}

/** Whether a connection failed because nothing listens yet (known by its errno, not by its sentence). */
function refused(error: unknown): boolean {
  return ((error as Error).cause as NodeJS.ErrnoException | undefined)?.code === 'ECONNREFUSED';
}

function tail(text: string): string {
  const trimmed = text.trim();
  return trimmed ? ` It said: ${trimmed.slice(-1000)}` : '';
}

function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
