import { type ChildProcess, spawn } from 'node:child_process';
import { Readable, Writable } from 'node:stream';
import { keeperStatus } from './keeper.js';
import { type ExitKillable, registerLive, unregisterLive } from './live-trees.js';
import { preflight } from './preflight.js';
import {
  childrenOf,
  descendantsOf,
  groupMembers,
  isLive,
  isStillRunning,
  listProcesses,
  type ProcessEntry,
  readProcess,
  signalProcess,
} from './proc-table.js';
import { TextTail } from './text-tail.js';
import { TrackedProcesses } from './tracked-processes.js';
import { type KeptTree, startKept } from './zygote.js';

/** What to start, and how to end it. */
export interface SpawnOptions {
  readonly command: string;
  readonly args?: readonly string[];
  readonly cwd: string;
  /** The whole environment of the process (default `process.env`). */
  readonly env?: NodeJS.ProcessEnv;
  /** Default `pipe` for all three. */
  readonly stdin?: 'pipe' | 'ignore';
  readonly stdout?: 'pipe' | 'ignore';
  readonly stderr?: 'pipe' | 'ignore';
  /** How many characters of stderr are kept for error messages (default 8192). */
  readonly stderrTail?: number;
  /**
   * Time between SIGTERM and SIGKILL (default 1000 ms): for {@link SupervisedProcess.stop}, and for what is left
   * of the tree when the command itself exits.
   */
  readonly graceMs?: number;
}

/** How the command ended. */
export interface ProcessExit {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  /** Set when it could not be started at all (`spawn clangd ENOENT`). */
  readonly spawnError?: string;
}

/** How long stderr may take to deliver a crash's last words after the exit. */
const STDERR_DRAIN_MS = 50;
/** How long after the grace period a stop waits for the tree before it stops waiting. */
const FINAL_WAIT_MS = 3000;

/**
 * A command started in its own process group, with everything it starts tracked until it has ended.
 *
 * On Linux with a Python 3 (see {@link keeperStatus}) the command runs under a keeper that is a child subreaper:
 * every descendant stays findable even after `setsid` or a double fork, and the keeper ends the whole tree when
 * the command exits, when asked, or when the harness dies without disposing (its socket to the harness closes).
 * Elsewhere the process group, the tree seen through /proc and the pids given to {@link track} are signalled.
 */
export class SupervisedProcess implements AsyncDisposable, ExitKillable {
  /** The command's stdin, stdout and stderr (null for `ignore`). */
  readonly stdin: Writable | null;
  readonly stdout: Readable | null;
  readonly stderr: Readable | null;
  /** Resolves with the command's pid once it runs (undefined when it could not start). */
  readonly started: Promise<number | undefined>;
  /** Resolves when the command exits (its descendants may still be ending). */
  readonly exited: Promise<ProcessExit>;
  readonly #options: SpawnOptions;
  /** The command itself, without a keeper. */
  readonly #child: ChildProcess | undefined;
  /** The tree under a keeper forked by the run's zygote. */
  readonly #kept: KeptTree | undefined;
  readonly #keeper: boolean;
  readonly #stderr: TextTail;
  /** Every process seen in the tree, and every tracked one, by pid with its start time. */
  readonly #known = new Map<number, string>();
  /** Processes outside the tree that end with it. */
  readonly #tracked = new TrackedProcesses();
  readonly #gone: Promise<void>;
  #pid: number | undefined;
  #contained = false;
  #exit: ProcessExit | undefined;
  #treeGone = false;
  #stopping: Promise<void> | undefined;
  #resolveStarted!: (pid: number | undefined) => void;
  #resolveExit!: (exit: ProcessExit) => void;

  constructor(options: SpawnOptions) {
    this.#options = options;
    this.#stderr = new TextTail(options.stderrTail ?? 8192);
    const python = keeperStatus().python;
    this.#keeper = python !== undefined;
    this.started = new Promise((resolve) => {
      this.#resolveStarted = resolve;
    });
    this.exited = new Promise((resolve) => {
      this.#resolveExit = resolve;
    });
    const env = options.env ?? process.env;
    const stdio = [options.stdin ?? 'pipe', options.stdout ?? 'pipe', options.stderr ?? 'pipe'] as const;
    const unusable = preflight(options.command, options.cwd, env);
    if (unusable) {
      // Like Node's own spawn: streams that end at once, and the error one tick later.
      const ended = (kind: 'pipe' | 'ignore'): Readable | null => (kind === 'pipe' ? Readable.from([]) : null);
      this.stdin = stdio[0] === 'pipe' ? new Writable({ write: (_chunk, _encoding, done) => done() }) : null;
      this.stdout = ended(stdio[1]);
      this.stderr = ended(stdio[2]);
      this.#child = undefined;
      this.#kept = undefined;
      this.#treeEnded();
      this.#gone = Promise.resolve();
      process.nextTick(() => this.#onLeaderExit({ code: null, signal: null, spawnError: `spawn ${options.command} ${unusable}` }));
      return;
    }
    const args = [...(options.args ?? [])];
    registerLive(this);
    if (python) {
      const kept = startKept(python, { command: options.command, args, cwd: options.cwd, env, stdio, graceMs: this.graceMs });
      this.#kept = kept;
      this.#child = undefined;
      this.stdin = kept.stdin;
      this.stdout = kept.stdout;
      this.stderr = kept.stderr;
      this.#watchStreams();
      kept.onLine((line) => this.#onKeeperMessage(line));
      this.#gone = kept.ended.then(({ code, signal }) => this.#onKeeperExit(code, signal));
      return;
    }
    const child = spawn(options.command, args, { cwd: options.cwd, env, stdio: [...stdio], detached: true, windowsHide: true });
    this.#child = child;
    this.#kept = undefined;
    // Without a keeper the command's pid is known now (spawn returns once it has exec'd): a stop before Node says
    // it spawned must still reach it with SIGTERM.
    this.#pid = child.pid;
    this.stdin = child.stdin;
    this.stdout = child.stdout;
    this.stderr = child.stderr;
    this.#watchStreams();
    this.#gone = new Promise<void>((resolve) => {
      child.once('exit', (code, signal) => {
        this.#onLeaderExit({ code, signal });
        resolve();
      });
      child.once('error', (error) => {
        // A process that could not be spawned emits no 'exit'.
        if (child.pid !== undefined) return;
        this.#treeEnded();
        const code = (error as NodeJS.ErrnoException).code;
        this.#onLeaderExit({ code: null, signal: null, spawnError: code ? `spawn ${options.command} ${code}` : error.message });
        resolve();
      });
    });
    child.once('spawn', () => this.#onStarted(child.pid, false));
  }

  #watchStreams(): void {
    // A write to a command that just exited fails with EPIPE asynchronously; the exit is reported anyway.
    this.stdin?.on('error', () => undefined);
    this.stderr?.on('data', (chunk: Buffer) => this.#stderr.push(chunk));
  }

  /** The grace period between SIGTERM and SIGKILL. */
  get graceMs(): number {
    return this.#options.graceMs ?? 1000;
  }

  /** The command's pid once it runs. */
  get pid(): number | undefined {
    return this.#pid;
  }

  /** How the command ended, once it has. */
  get exit(): ProcessExit | undefined {
    return this.#exit;
  }

  /** Whether a keeper runs this tree (and ends it when the harness dies of any cause). */
  get kept(): boolean {
    return this.#keeper;
  }

  /** Whether every descendant is contained (a keeper that is a child subreaper), not only the process group. */
  get contained(): boolean {
    return this.#contained;
  }

  /** The newest characters the command wrote to stderr. */
  get stderrTail(): string {
    return this.#stderr.text;
  }

  /** Whether the command and everything it started have ended. */
  get ended(): boolean {
    return this.#treeGone;
  }

  /**
   * Adds a process that is not a descendant (or may stop being one) to end with this tree, such as the
   * debuggee a debug adapter reports. Its start time is recorded now, so a later reuse of the pid is never hit.
   */
  track(pid: number | undefined): void {
    this.#tracked.track(pid);
  }

  /** The live processes of the tree and the tracked ones (not the keeper), read from /proc now. */
  processes(): ProcessEntry[] {
    const found = new Map<number, ProcessEntry>();
    const add = (entry: ProcessEntry | undefined): void => {
      if (isLive(entry) && !found.has(entry.pid)) found.set(entry.pid, entry);
    };
    const root = this.#keeper ? this.#kept?.keeperPid : this.#pid;
    if (root !== undefined && !this.#treeGone) {
      if (this.#keeper) {
        // Everything is below the keeper: its subtree is the whole tree.
        for (const entry of descendantsOf(root)) add(entry);
      } else {
        const table = listProcesses();
        add(table.find((entry) => entry.pid === root));
        for (const entry of descendantsOf(root, table)) add(entry);
        for (const entry of groupMembers(root, table)) add(entry);
      }
    }
    for (const [pid, startTime] of this.#known) {
      const entry = readProcess(pid);
      if (entry?.startTime === startTime) add(entry);
    }
    for (const entry of this.#tracked.alive()) add(entry);
    // Only what runs now is remembered: a process seen once and re-parented away is still found by its pid.
    this.#known.clear();
    for (const entry of found.values()) {
      if (!this.#tracked.has(entry.pid)) this.#known.set(entry.pid, entry.startTime);
    }
    return [...found.values()];
  }

  /**
   * The live processes whose parent died while they ran, with their descendants: under a keeper they were adopted
   * by it (a debuggee's helper after the debuggee exited, a `cmd &` after its shell returned). Empty without one:
   * such processes then belong to init and cannot be told apart.
   */
  orphans(): ProcessEntry[] {
    const keeper = this.#keeper ? this.#kept?.keeperPid : undefined;
    if (keeper === undefined || this.#treeGone) return [];
    const adopted = (childrenOf(keeper) ?? listProcesses().flatMap((entry) => (entry.ppid === keeper ? [entry.pid] : [])))
      .filter((pid) => pid !== this.#pid)
      .flatMap((pid) => readProcess(pid) ?? [])
      .filter(isLive);
    return adopted.flatMap((entry) => [entry, ...descendantsOf(entry.pid)]);
  }

  /** Ends the {@link orphans}: SIGTERM, then SIGKILL to what is left after `graceMs`. */
  async endOrphans(graceMs = this.graceMs): Promise<void> {
    const orphans = this.orphans();
    if (orphans.length === 0) return;
    for (const entry of orphans) signalProcess(entry, 'SIGTERM');
    const deadline = Date.now() + graceMs;
    while (orphans.some(isStillRunning) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 25));
    for (const entry of this.orphans()) signalProcess(entry, 'SIGKILL');
  }

  /** Sends a signal to every process of the tree (escaped descendants included) and to the tracked ones. */
  signal(signal: NodeJS.Signals): void {
    if (!(this.#keeper && this.#tell(`signal ${signal}`))) this.#signalFromHere(signal);
    this.#signalTracked(signal);
  }

  /**
   * Ends the tree: SIGTERM to every process, SIGKILL to what is left after `graceMs`. Resolves once all are gone
   * (or a few seconds later if something cannot be killed). Safe to call again: later calls share the first.
   */
  stop(graceMs = this.graceMs): Promise<void> {
    this.#stopping ??= this.#stop(graceMs);
    return this.#stopping;
  }

  [Symbol.asyncDispose](): Promise<void> {
    return this.stop();
  }

  /** For the exit hook: SIGKILL to everything this process can see, at once. */
  killNow(): void {
    this.#signalFromHere('SIGKILL');
    this.#signalTracked('SIGKILL');
  }

  async #stop(graceMs: number): Promise<void> {
    if (!this.#keeper) this.processes();
    if (this.#keeper && !this.#treeGone && this.#tell(`stop ${Math.max(0, Math.round(graceMs))}`)) {
      this.#signalTracked('SIGTERM');
      if (!(await this.#waitGone(graceMs))) this.#signalTracked('SIGKILL');
      if (await this.#waitGone(FINAL_WAIT_MS)) return;
    }
    this.#signalFromHere('SIGTERM');
    this.#signalTracked('SIGTERM');
    if (await this.#waitGone(graceMs)) return;
    this.#signalFromHere('SIGKILL');
    this.#signalTracked('SIGKILL');
    await this.#waitGone(FINAL_WAIT_MS);
  }

  /** Waits until the tree and the tracked processes are gone, at most `ms`; returns whether they are. */
  async #waitGone(ms: number): Promise<boolean> {
    const deadline = Date.now() + ms;
    for (;;) {
      if (this.#allGone()) return true;
      const left = deadline - Date.now();
      if (left <= 0) return false;
      const tick = new Promise((resolve) => setTimeout(resolve, Math.min(25, left)));
      await (this.#keeper && !this.#treeGone ? Promise.race([this.#gone, tick]) : tick);
    }
  }

  #allGone(): boolean {
    // A keeper exits only once nothing is left below it.
    if (this.#keeper) return this.#treeGone && this.#tracked.alive().length === 0;
    return this.#exit !== undefined && this.processes().length === 0;
  }

  #signalFromHere(signal: NodeJS.Signals): void {
    const leader = this.#pid;
    if (leader !== undefined && this.#exit === undefined) {
      try {
        process.kill(-leader, signal);
      } catch {
        // The group is empty.
      }
    }
    for (const entry of this.processes()) {
      if (!this.#tracked.has(entry.pid)) signalProcess(entry, signal);
    }
    if (this.#keeper && signal === 'SIGKILL' && !this.#treeGone && this.#kept?.keeperPid !== undefined) {
      // Only when the tree below it is being killed anyway: a keeper killed first would orphan it.
      this.#tell(`signal ${signal}`);
    }
  }

  #signalTracked(signal: NodeJS.Signals): void {
    this.#tracked.signal(signal);
  }

  /** Sends a command to the keeper (`stop MS`, `signal NAME`); false when it cannot hear it any more. */
  #tell(command: string): boolean {
    if (!this.#kept || this.#treeGone) return false;
    return this.#kept.tell(command);
  }

  #onKeeperMessage(line: string): void {
    const [kind, first, second] = line.split(' ');
    if (kind === 'pid') this.#onStarted(Number(first), second === '1');
    else if (kind === 'error') this.#onLeaderExit({ code: null, signal: null, spawnError: `spawn ${this.#options.command} ${first}` });
    else if (kind === 'exit' && first === 'code') this.#onLeaderExit({ code: Number(second), signal: null });
    else if (kind === 'exit' && first === 'signal') this.#onLeaderExit({ code: null, signal: second as NodeJS.Signals });
  }

  #onStarted(pid: number | undefined, contained: boolean): void {
    this.#pid = pid;
    this.#contained = contained;
    if (pid !== undefined) {
      const entry = readProcess(pid);
      if (entry) this.#known.set(pid, entry.startTime);
    }
    this.#resolveStarted(pid);
  }

  #onKeeperExit(code: number | null, signal: NodeJS.Signals | null): void {
    // A keeper exits by itself only once its tree is gone, with the command's status as its code.
    const killed = signal !== null || this.#exit === undefined;
    this.#treeEnded();
    if (killed) this.#endOrphanedTree();
    this.#onLeaderExit({ code, signal });
  }

  /**
   * The keeper was killed (never by us while its tree lives), so its tree now belongs to init, out of its reach.
   * Ends what can still be recognised as ours: whatever is in the command's process group or session (neither id
   * can name another process while a member lives), the processes last listed, and the tracked ones. A
   * descendant that started a session of its own is not recognisable any more.
   */
  #endOrphanedTree(): void {
    const leader = this.#pid;
    if (leader !== undefined) {
      for (const entry of listProcesses()) {
        if (isLive(entry) && (entry.pgid === leader || entry.sid === leader)) signalProcess(entry, 'SIGKILL');
      }
    }
    for (const [pid, startTime] of this.#known) signalProcess({ pid, startTime }, 'SIGKILL');
    this.#signalTracked('SIGKILL');
  }

  #onLeaderExit(exit: ProcessExit): void {
    if (this.#exit) return;
    this.#exit = exit;
    this.#resolveStarted(this.#pid);
    if (!this.#keeper) {
      // The rest of the group, and what escaped it, go with the command, as the keeper does on Linux.
      if (exit.spawnError !== undefined) this.#treeEnded();
      else void this.stop().then(() => this.#treeEnded());
    }
    const stderr = this.stderr;
    if (!stderr || stderr.readableEnded || exit.spawnError) {
      this.#resolveExit(exit);
      return;
    }
    // A crash's last words may still be in the pipe.
    const timer = setTimeout(() => this.#resolveExit(exit), STDERR_DRAIN_MS);
    timer.unref();
    stderr.once('end', () => {
      clearTimeout(timer);
      this.#resolveExit(exit);
    });
  }

  /**
   * The one end of the tree, however it came (the keeper exited, the command could not start, the fallback's stop
   * finished): nothing of it is left to end, so the exit hook forgets it. Once.
   */
  #treeEnded(): void {
    if (this.#treeGone) return;
    this.#treeGone = true;
    unregisterLive(this);
  }
}

/** Starts a supervised process. See {@link SupervisedProcess}. */
export function spawnSupervised(options: SpawnOptions): SupervisedProcess {
  return new SupervisedProcess(options);
}

