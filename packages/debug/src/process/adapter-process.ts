import { type ChildProcess, spawn } from 'node:child_process';
import { connect, type Socket } from 'node:net';
import { DapConnection } from '../dap/connection.js';
import { DebugError } from '../errors.js';
import type { AdapterCommand, AdapterTransport } from '../adapters/adapter.js';
import { ProcessTracker } from './tracker.js';

/** How a process ended. */
export interface ExitInfo {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
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
  /** Output of the adapter process that is not DAP (a TCP adapter's stdout carries the debuggee's output). */
  readonly onProcessOutput?: (category: 'stdout' | 'stderr', text: string) => void;
  readonly signal?: AbortSignal;
}

const STDERR_TAIL = 4000;

/**
 * A running adapter process and the DAP connection to it. It is started in its own process group and every
 * process below it is tracked, so {@link AdapterProcess.kill} leaves nothing behind.
 */
export class AdapterProcess {
  readonly connection: DapConnection;
  readonly tracker: ProcessTracker;
  /** Resolves when the process has exited. */
  readonly exited: Promise<ExitInfo>;
  readonly #child: ChildProcess | undefined;
  readonly #stderr: { text: string };
  #exit: ExitInfo | undefined;

  constructor(
    connection: DapConnection,
    child: ChildProcess | undefined,
    tracker: ProcessTracker,
    stderr: { text: string },
    exited: Promise<ExitInfo>,
  ) {
    this.connection = connection;
    this.#child = child;
    this.tracker = tracker;
    this.#stderr = stderr;
    this.exited = exited.then((info) => {
      this.#exit = info;
      return info;
    });
  }

  /** The adapter's pid (none when `attach` connected to a server it did not start). */
  get pid(): number | undefined {
    return this.#child?.pid;
  }

  /** How the process ended, once it has. */
  get exit(): ExitInfo | undefined {
    return this.#exit;
  }

  /** The last few KiB the adapter wrote to stderr, for crash reports. */
  get stderrTail(): string {
    return this.#stderr.text;
  }

  /** Records the adapter's current process tree (call after launch and at each stop). */
  snapshotTree(): void {
    this.tracker.trackTree(this.#child?.pid);
  }

  /**
   * Kills the adapter and every process it started: SIGTERM to its group and to each tracked process, then
   * SIGKILL to whatever is left after `graceMs`. Resolves when they are gone (or after a last wait).
   */
  async kill(graceMs = 500): Promise<void> {
    this.snapshotTree();
    this.connection.close({ kind: 'ended' });
    this.#signal('SIGTERM');
    if (await this.#waitGone(graceMs)) return;
    this.#signal('SIGKILL');
    await this.#waitGone(2000);
  }

  #signal(signal: NodeJS.Signals): void {
    const pid = this.#child?.pid;
    if (pid && this.#exit === undefined) {
      try {
        process.kill(-pid, signal);
      } catch {
        try {
          process.kill(pid, signal);
        } catch {
          // Already gone.
        }
      }
    }
    this.tracker.signalAll(signal);
  }

  async #waitGone(ms: number): Promise<boolean> {
    const deadline = Date.now() + ms;
    for (;;) {
      const adapterGone = this.#child === undefined || this.#exit !== undefined;
      if (adapterGone && this.tracker.alive().length === 0) return true;
      if (Date.now() >= deadline) return false;
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  }
}

/** Starts an adapter and connects to it over stdio or TCP. */
export async function startAdapter(options: StartAdapterOptions): Promise<AdapterProcess> {
  const { command, name } = options;
  const tracker = new ProcessTracker();
  const stderr = { text: '' };
  let child: ChildProcess;
  try {
    child = spawn(command.command, [...command.args], {
      cwd: command.cwd ?? options.cwd,
      env: { ...process.env, ...command.env },
      stdio: ['pipe', 'pipe', 'pipe'],
      // Its own process group: one signal reaches the adapter and whatever it spawned into that group.
      detached: true,
    });
  } catch (error) {
    throw new DebugError('adapter_start_failed', `The ${name} adapter could not be started (${command.command}): ${(error as Error).message}.`, {
      cause: error,
    });
  }
  const exited = new Promise<ExitInfo>((resolve) => {
    child.once('exit', (code, signal) => resolve({ code, signal }));
    child.once('error', () => resolve({ code: null, signal: null }));
  });
  const spawnError = new Promise<Error>((resolve) => child.once('error', resolve));
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr.text = (stderr.text + chunk.toString('utf8')).slice(-STDERR_TAIL);
  });
  tracker.track(child.pid);

  try {
    if (options.transport.kind === 'stdio') {
      const connection = new DapConnection(child.stdout!, child.stdin!, { name, requestTimeoutMs: options.requestTimeoutMs });
      const early = await Promise.race([spawnError, delay(0).then(() => undefined)]);
      if (early) throw early;
      const process_ = new AdapterProcess(connection, child, tracker, stderr, exited);
      void exited.then((info) => connection.close({ kind: 'exited', detail: describeExit(name, info) }));
      return process_;
    }
    const port = await waitForListening(child, options, stderr, exited, spawnError);
    child.stdout?.on('data', (chunk: Buffer) => options.onProcessOutput?.('stdout', chunk.toString('utf8')));
    child.stderr?.on('data', (chunk: Buffer) => options.onProcessOutput?.('stderr', chunk.toString('utf8')));
    const socket = await connectSocket(port, options.startTimeoutMs, name);
    const connection = new DapConnection(socket, socket, { name, requestTimeoutMs: options.requestTimeoutMs });
    void exited.then((info) => connection.close({ kind: 'exited', detail: describeExit(name, info) }));
    return new AdapterProcess(connection, child, tracker, stderr, exited);
  } catch (error) {
    killGroup(child);
    throw error instanceof DebugError
      ? error
      : new DebugError('adapter_start_failed', `The ${name} adapter could not be started (${command.command}): ${(error as Error).message}.`, {
          cause: error,
        });
  }
}

/**
 * Connects to a DAP server that is already listening (a `debugpy --listen` debuggee, a headless delve). A
 * refused connection is retried for a few seconds: the model often starts the debuggee and attaches at once.
 */
export async function connectToServer(name: string, port: number, requestTimeoutMs: number, retryMs = 10_000): Promise<AdapterProcess> {
  const deadline = Date.now() + retryMs;
  let socket: Socket | undefined;
  while (!socket) {
    try {
      socket = await connectSocket(port, 5000, name);
    } catch (error) {
      if (Date.now() >= deadline || !String((error as Error).message).includes('ECONNREFUSED')) throw error;
      await delay(100);
    }
  }
  const connection = new DapConnection(socket, socket, { name, requestTimeoutMs });
  const exited = new Promise<ExitInfo>((resolve) => socket.once('close', () => resolve({ code: null, signal: null })));
  return new AdapterProcess(connection, undefined, new ProcessTracker(), { text: '' }, exited);
}

/** One sentence on how an adapter process ended. */
export function describeExit(name: string, info: ExitInfo): string {
  if (info.signal) return `the ${name} adapter was killed by ${info.signal}`;
  if (info.code === null) return `the ${name} adapter could not run`;
  return `the ${name} adapter exited with code ${info.code}`;
}

async function waitForListening(
  child: ChildProcess,
  options: StartAdapterOptions,
  stderr: { text: string },
  exited: Promise<ExitInfo>,
  spawnError: Promise<Error>,
): Promise<number> {
  const pattern = (options.transport as { listening: RegExp }).listening;
  let seen = '';
  let onData: ((chunk: Buffer) => void) | undefined;
  const found = new Promise<number>((resolve) => {
    onData = (chunk: Buffer) => {
      seen += chunk.toString('utf8');
      const match = pattern.exec(seen);
      if (match?.[1]) resolve(Number(match[1]));
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
  });
  let timer: NodeJS.Timeout | undefined;
  const seconds = options.startTimeoutMs / 1000;
  try {
    return await Promise.race([
      found,
      spawnError.then((error) => Promise.reject(error)),
      exited.then((info) =>
        Promise.reject(
          new DebugError('adapter_start_failed', `${capitalize(describeExit(options.name, info))} before it listened.${tail(stderr.text || seen)}`),
        ),
      ),
      new Promise<never>((_, reject) => {
        timer = setTimeout(
          () => reject(new DebugError('adapter_start_failed', `The ${options.name} adapter did not say where it listens within ${seconds} s.${tail(seen)}`)),
          options.startTimeoutMs,
        );
      }),
    ]);
  } finally {
    clearTimeout(timer);
    if (onData) {
      child.stdout?.off('data', onData);
      child.stderr?.off('data', onData);
    }
  }
}

function connectSocket(port: number, timeoutMs: number, name: string): Promise<Socket> {
  return new Promise<Socket>((resolve, reject) => {
    const socket = connect({ port, host: '127.0.0.1' });
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new DebugError('adapter_start_failed', `Could not connect to the ${name} debug server on 127.0.0.1:${port} within ${timeoutMs / 1000} s.`));
    }, timeoutMs);
    socket.once('connect', () => {
      clearTimeout(timer);
      socket.setNoDelay(true);
      resolve(socket);
    });
    socket.once('error', (error) => {
      clearTimeout(timer);
      reject(new DebugError('adapter_start_failed', `Could not connect to the ${name} debug server on 127.0.0.1:${port}: ${error.message}.`));
    });
  });
}

function killGroup(child: ChildProcess): void {
  if (!child.pid) return;
  try {
    process.kill(-child.pid, 'SIGKILL');
  } catch {
    child.kill('SIGKILL');
  }
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
