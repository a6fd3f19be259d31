import { type ChildProcess, spawn } from 'node:child_process';
import type { Socket } from 'node:net';
import { PassThrough, type Readable, type Writable } from 'node:stream';
import { liveRuns, onLastRunEnded } from '../runs.js';
import { KEEPER_BOOTSTRAP, keeperScript } from './keeper-script.js';

/** One tree to start under a keeper. */
export interface TreeRequest {
  readonly command: string;
  readonly args: readonly string[];
  readonly cwd: string;
  readonly env: NodeJS.ProcessEnv;
  readonly stdio: readonly ['pipe' | 'ignore', 'pipe' | 'ignore', 'pipe' | 'ignore'];
  readonly graceMs: number;
}

/** How a keeper ended: its exit code, or the signal that killed it. */
export interface KeeperExit {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
}

/** How long a keeper's last words (and its tree's last output) may take to arrive after the zygote saw it exit. */
const DRAIN_MS = 500;
/** How long a retiring zygote may take to exit before it is killed. */
const RETIRE_MS = 1000;
/** Room in a keeper's arguments and environment to show its command's (see `retitle` in keeper.py). */
const TITLE_ROOM = 4096;
const ENV_ROOM = 65_536;

/**
 * A tree started through the run's zygote: the command's stdio (streams that exist at once and connect when the
 * sockets arrive), the keeper's pid, its control socket, and how it ended.
 */
export class KeptTree {
  readonly stdin: Writable | null;
  readonly stdout: Readable | null;
  readonly stderr: Readable | null;
  /** Resolves once the keeper has exited, its last lines were read and the command's output has ended. */
  readonly ended: Promise<KeeperExit>;
  #keeperPid: number | undefined;
  #control: Socket | undefined;
  #input: Socket | undefined;
  readonly #outputs: Socket[] = [];
  readonly #queued: string[] = [];
  #onLine: (line: string) => void = () => undefined;
  #exit: KeeperExit | undefined;
  #resolveEnded!: (exit: KeeperExit) => void;
  #controlClosed = false;
  #zygoteGone = false;
  #finished = false;

  readonly #release: () => Promise<void>;

  /** `release` runs once the tree has ended, before {@link ended} resolves (an idle zygote may retire then). */
  constructor(stdio: TreeRequest['stdio'], release: () => Promise<void>) {
    this.#release = release;
    this.stdin = stdio[0] === 'pipe' ? new PassThrough() : null;
    this.stdout = stdio[1] === 'pipe' ? new PassThrough() : null;
    this.stderr = stdio[2] === 'pipe' ? new PassThrough() : null;
    this.ended = new Promise((resolve) => {
      this.#resolveEnded = resolve;
    });
  }

  /** The keeper's pid, once the zygote has forked it. */
  get keeperPid(): number | undefined {
    return this.#keeperPid;
  }

  /** Hears every line the keeper sends (`pid`, `error`, `exit`). */
  onLine(listener: (line: string) => void): void {
    this.#onLine = listener;
  }

  /** Sends a command to the keeper; false once it cannot hear any more. */
  tell(line: string): boolean {
    if (this.#exit || this.#controlClosed) return false;
    if (this.#control) this.#control.write(`${line}\n`);
    else this.#queued.push(`${line}\n`);
    return true;
  }

  /** @internal The zygote's messages about this tree. */
  receive(message: ZygoteMessage, handle: unknown): void {
    if (message.keeper !== undefined) this.#keeperPid = message.keeper;
    else if (message.fd !== undefined && handle) this.#attach(message.fd, handle as Socket);
    else if (message.error !== undefined) {
      this.#onLine(`error ${message.error}`);
      this.#exited({ code: 127, signal: null });
    } else if (message.code !== undefined) this.#exited({ code: message.code, signal: null });
    else if (message.signal !== undefined) this.#exited({ code: null, signal: message.signal as NodeJS.Signals });
  }

  /**
   * @internal The zygote is gone, so it cannot say how this keeper ends. A keeper it had forked runs on (its socket
   * to this process is its own): its end is taken from that socket closing. One it had not handed over is lost.
   */
  lost(): void {
    this.#zygoteGone = true;
    if (!this.#control) {
      this.#onLine('error EAGAIN');
      this.#exited({ code: 127, signal: null });
    } else if (this.#controlClosed) this.#exited({ code: null, signal: null });
  }

  #attach(index: number, socket: Socket): void {
    socket.on('error', () => undefined);
    if (index === 3) {
      this.#control = socket;
      socket.setEncoding('utf8');
      let pending = '';
      socket.on('data', (chunk: string) => {
        pending += chunk;
        for (let end = pending.indexOf('\n'); end >= 0; end = pending.indexOf('\n')) {
          const line = pending.slice(0, end);
          pending = pending.slice(end + 1);
          this.#onLine(line);
        }
      });
      socket.once('close', () => {
        this.#controlClosed = true;
        if (this.#zygoteGone) this.#exited({ code: null, signal: null });
        this.#maybeFinish();
      });
      for (const line of this.#queued.splice(0)) socket.write(line);
    } else if (index === 0) {
      this.#input = socket;
      // Only written to: what the command might write on its stdin is dropped, and its end is noticed.
      socket.resume();
      (this.stdin as PassThrough).pipe(socket);
    } else {
      this.#outputs.push(socket);
      socket.once('close', () => this.#maybeFinish());
      socket.pipe((index === 1 ? this.stdout : this.stderr) as PassThrough);
    }
  }

  #exited(exit: KeeperExit): void {
    if (this.#exit) return;
    this.#exit = exit;
    this.#maybeFinish();
    // The keeper's socket and the tree's output close at once, unless an escaped process still holds the output:
    // the end does not wait for that.
    setTimeout(() => this.#finish(), DRAIN_MS).unref();
  }

  #maybeFinish(): void {
    if (!this.#exit) return;
    if ((this.#controlClosed || !this.#control) && this.#outputs.every((socket) => socket.closed)) this.#finish();
  }

  #finish(): void {
    if (this.#finished || !this.#exit) return;
    this.#finished = true;
    // The command's stdin and the keeper's socket belong to the tree and go with it; the output streams end by
    // themselves when their last writer closes them.
    this.#control?.destroy();
    this.#input?.destroy();
    this.stdin?.destroy();
    const exit = this.#exit;
    void this.#release().then(() => this.#resolveEnded(exit));
  }
}

/** What the zygote says about a tree (keeper.py's `tell`). */
interface ZygoteMessage {
  readonly id: number;
  readonly keeper?: number;
  readonly fd?: number;
  readonly code?: number;
  readonly signal?: string;
  readonly error?: string;
}

/**
 * The run's zygote: one Python process per harness process that forks a keeper for each tree on request, so the
 * interpreter's start (20-30 ms) is paid once. Requests go down its stdin; the sockets of each tree (the command's
 * stdio and the keeper's control socket, created by the zygote) come back over Node's IPC channel, as sockets Node
 * adopts. It holds nothing of a tree once the keeper is forked: each keeper has its own socket to this process, and
 * its death (or this process's) is seen there, as before. The zygote ends when this process does.
 */
class Zygote {
  readonly #child: ChildProcess;
  readonly #trees = new Map<number, KeptTree>();
  #next = 1;
  #gone = false;

  constructor(python: string) {
    this.#child = spawn(python, ['-I', '-S', '-c', KEEPER_BOOTSTRAP, 'agent-tools-keeper', ' '.repeat(TITLE_ROOM)], {
      cwd: '/',
      // Only the room for keepers to show their commands' environments: the zygote itself runs nothing.
      env: { AGENT_TOOLS_KEEPER_ROOM: ' '.repeat(ENV_ROOM) },
      stdio: ['pipe', 'ignore', 'ignore', 'ipc'],
      detached: true,
      serialization: 'json',
    });
    const child = this.#child;
    child.stdin?.on('error', () => undefined);
    child.stdin?.write(`${keeperScript()}\0`);
    child.on('message', (message: ZygoteMessage, handle: unknown) => this.#trees.get(message.id)?.receive(message, handle));
    child.on('error', () => this.#lose());
    child.on('exit', () => this.#lose());
    child.on('disconnect', () => this.#lose());
    // The zygote keeps the harness alive only while it has trees (as each keeper did when it was a child of ours).
    child.unref();
    child.channel?.unref();
    (child.stdin as unknown as { unref?: () => void } | null)?.unref?.();
  }

  get gone(): boolean {
    return this.#gone;
  }

  start(request: TreeRequest): KeptTree {
    const id = this.#next++;
    const tree = new KeptTree(request.stdio, () => {
      this.#trees.delete(id);
      if (this.#trees.size > 0) return Promise.resolve();
      // Idle: it no longer keeps the harness alive, and goes unless a run is alive to spawn again soon.
      this.#child.channel?.unref();
      return liveRuns() === 0 ? this.#retire() : Promise.resolve();
    });
    this.#trees.set(id, tree);
    if (this.#trees.size === 1) this.#child.channel?.ref();
    const modes = request.stdio.map((kind) => (kind === 'pipe' ? 'p' : 'i')).join('');
    const env = Object.entries(request.env).flatMap(([key, value]) => (value === undefined ? [] : [`${key}=${value}`]));
    const payload = Buffer.from(
      [String(id), request.cwd, String(Math.round(request.graceMs)), modes, String(1 + request.args.length), request.command, ...request.args, ...env].join('\0'),
    );
    if (this.#gone) {
      tree.lost();
      return tree;
    }
    this.#child.stdin?.write(Buffer.concat([Buffer.from(`${payload.length}\n`), payload]));
    return tree;
  }

  /** Ends the zygote if it has no tree (see {@link onLastRunEnded} below). */
  retireIfIdle(): Promise<void> {
    return this.#trees.size === 0 ? this.#retire() : Promise.resolve();
  }

  /**
   * Ends the zygote once it has no tree and no run (registry) is alive: nothing is left running once the runs and
   * their trees are gone. While a run is alive it stays between trees, so a tree that starts alone costs a fork
   * rather than a Python start; the next tree after a retirement starts a new zygote. Resolves once it has exited.
   */
  #retire(): Promise<void> {
    if (current === this) current = undefined;
    const child = this.#child;
    if (this.#gone || child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
    this.#gone = true;
    // Waited for: the harness must not exit half way through a dispose.
    child.ref();
    const killer = setTimeout(() => child.kill('SIGKILL'), RETIRE_MS);
    const exited = new Promise<void>((resolve) => {
      child.once('exit', () => {
        clearTimeout(killer);
        resolve();
      });
    });
    child.stdin?.end();
    return exited;
  }

  #lose(): void {
    if (this.#gone) return;
    this.#gone = true;
    if (current === this) current = undefined;
    for (const tree of this.#trees.values()) tree.lost();
  }
}

let current: Zygote | undefined;

// The last run's dispose ends an idle zygote before it resolves, so a dispose leaves no process behind.
onLastRunEnded(() => current?.retireIfIdle() ?? Promise.resolve());

/** Starts a tree under a keeper forked by this process's zygote (started at the first tree, again if it died). */
export function startKept(python: string, request: TreeRequest): KeptTree {
  if (!current || current.gone) current = new Zygote(python);
  return current.start(request);
}
