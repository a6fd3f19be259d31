import { VibeError } from './errors.js';
import { runOnce, type WorkerResult, type WorkerRunner, type WorkerTask, type WorkerTier } from './runner.js';

/** Where a worker is: running (also while it restarts), or how its last run ended. */
export type WorkerStatus = 'running' | 'finished' | 'failed' | 'killed';

/** A worker as tools and harness UIs see it: a copy, safe to keep. */
export interface WorkerSnapshot {
  readonly id: string;
  readonly label: string;
  readonly tier: WorkerTier;
  readonly status: WorkerStatus;
  /** How many times it has started: 1, then one more per message sent. */
  readonly run: number;
  /** How many messages were appended to its brief. */
  readonly messages: number;
  /** The process id of the current or last run, when the runner reported one. */
  readonly pid: number | undefined;
  readonly spawnedAt: number;
  /** When the current or last run started. */
  readonly runStartedAt: number;
  readonly endedAt: number | undefined;
  /** How long the current run has taken so far, or how long the last run took. */
  readonly elapsedMs: number;
  /** The result of the last run that ended (kept while a restarted run works). */
  readonly result: WorkerResult | undefined;
  /** What the current run has printed so far (the end of it). */
  readonly output: string;
}

/** How a {@link WorkerList} runs its workers. */
export interface WorkerListOptions {
  /** What a worker is: the harness's runner, or `processRunner(...)`. */
  readonly runner: WorkerRunner;
  /** How many workers may run at once (default 4); a spawn past it is refused with a clear error. */
  readonly maxRunning?: number;
  /** How many ended workers are kept for `vibe_list` (default 50); the oldest go first. */
  readonly maxKept?: number;
  /** The working directory workers run in. */
  readonly cwd?: string;
  /** How long a stop waits for the runner to confirm (default 8 s, inside the registry's 10 s dispose budget) before the worker is marked killed anyway. */
  readonly stopTimeoutMs?: number;
  /** How much of a running worker's output is kept for listings (default 4,000 characters, from the end). */
  readonly liveOutputChars?: number;
}

/** What {@link WorkerList.spawn} needs. */
export interface SpawnSpec {
  readonly brief: string;
  readonly label: string;
  readonly tier?: WorkerTier;
}

/** The tier a worker gets when none is named: the careful one, since a wrong `fast` costs quality silently. */
export const DEFAULT_TIER: WorkerTier = 'good';

interface Run {
  readonly n: number;
  readonly controller: AbortController;
  settled: Promise<void>;
  stopFor?: 'kill' | 'restart';
}

interface Worker {
  readonly id: string;
  readonly label: string;
  readonly tier: WorkerTier;
  readonly brief: string;
  readonly messages: string[];
  status: WorkerStatus;
  runs: number;
  current: Run | undefined;
  restartPending: boolean;
  pid: number | undefined;
  readonly spawnedAt: number;
  runStartedAt: number;
  endedAt: number | undefined;
  result: WorkerResult | undefined;
  output: string;
  changed: Deferred;
}

interface Deferred {
  readonly promise: Promise<void>;
  readonly resolve: () => void;
}

function deferred(): Deferred {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}

/**
 * The background workers of one run, and their lifecycle: spawn returns at once; a message is appended to the
 * brief and restarts the worker (never dropped); wait blocks until the worker ends or a timeout; kill stops it;
 * disposing the list kills every worker. This is the `workerList` resource; vibe mode is on when a run has one.
 */
export class WorkerList implements AsyncDisposable {
  readonly maxRunning: number;
  readonly #options: WorkerListOptions;
  readonly #workers = new Map<string, Worker>();
  #seq = 0;
  #disposing: Promise<void> | undefined;

  constructor(options: WorkerListOptions) {
    this.#options = options;
    this.maxRunning = Math.max(1, options.maxRunning ?? 4);
  }

  /** How many workers are running now. */
  get running(): number {
    return [...this.#workers.values()].filter((w) => w.status === 'running').length;
  }

  /** Starts a worker and returns at once. Throws {@link VibeError} `limit` past `maxRunning`. */
  spawn(spec: SpawnSpec): WorkerSnapshot {
    this.#checkOpen();
    if (this.running >= this.maxRunning) throw this.#limitError(`Cannot start "${spec.label}"`);
    const now = Date.now();
    const worker: Worker = {
      id: `w${++this.#seq}`,
      label: spec.label.trim(),
      tier: spec.tier ?? DEFAULT_TIER,
      brief: spec.brief,
      messages: [],
      status: 'running',
      runs: 0,
      current: undefined,
      restartPending: false,
      pid: undefined,
      spawnedAt: now,
      runStartedAt: now,
      endedAt: undefined,
      result: undefined,
      output: '',
      changed: deferred(),
    };
    this.#workers.set(worker.id, worker);
    this.#evict();
    this.#start(worker);
    return snapshot(worker);
  }

  /**
   * Appends a message to a worker's brief and restarts it with the whole brief (a running worker is stopped
   * first; an ended one starts again). Messages sent while a restart is pending join it. Throws `limit` when an
   * ended worker cannot start again because too many run; the message is then not appended.
   */
  async send(idOrLabel: string, message: string): Promise<WorkerSnapshot> {
    this.#checkOpen();
    const worker = this.#find(idOrLabel);
    if (worker.status !== 'running' && this.running >= this.maxRunning) {
      throw this.#limitError(`Cannot restart ${worker.id} "${worker.label}" with your message, so it was not delivered`);
    }
    worker.messages.push(message);
    if (worker.restartPending) return snapshot(worker);
    const old = worker.current;
    if (worker.status === 'running' && old) {
      old.stopFor = 'restart';
      worker.restartPending = true;
      old.controller.abort();
      await this.#settledWithin(old);
      // A kill or the end of the run while it stopped cancels the restart; the message stays in the brief.
      if (!worker.restartPending) return snapshot(worker);
      worker.restartPending = false;
    }
    this.#start(worker);
    return snapshot(worker);
  }

  /** Waits until the worker ends, `timeoutMs` pass, or `signal` aborts; `ended` says which. */
  async wait(idOrLabel: string, timeoutMs: number, signal?: AbortSignal): Promise<{ worker: WorkerSnapshot; ended: boolean }> {
    const worker = this.#find(idOrLabel);
    const deadline = Date.now() + timeoutMs;
    while (worker.status === 'running') {
      const left = deadline - Date.now();
      if (left <= 0 || signal?.aborted) return { worker: snapshot(worker), ended: false };
      const changed = await raceChange(worker.changed.promise, left, signal);
      if (!changed) return { worker: snapshot(worker), ended: false };
    }
    return { worker: snapshot(worker), ended: true };
  }

  /** Stops a running worker (its whole process group, with the process runner); says whether it was running. */
  async kill(idOrLabel: string): Promise<{ worker: WorkerSnapshot; wasRunning: boolean }> {
    const worker = this.#find(idOrLabel);
    if (worker.status !== 'running') return { worker: snapshot(worker), wasRunning: false };
    await this.#stop(worker);
    return { worker: snapshot(worker), wasRunning: true };
  }

  /** Every worker kept, oldest first. */
  list(): WorkerSnapshot[] {
    return [...this.#workers.values()].map(snapshot);
  }

  /** One worker by id (or unique label); throws {@link VibeError} `unknown_worker`. */
  get(idOrLabel: string): WorkerSnapshot {
    return snapshot(this.#find(idOrLabel));
  }

  /** Kills every running worker and refuses new ones. Safe to call twice. */
  dispose(): Promise<void> {
    this.#disposing ??= Promise.all(
      [...this.#workers.values()].filter((w) => w.status === 'running').map((w) => this.#stop(w)),
    ).then(() => undefined);
    return this.#disposing;
  }

  [Symbol.asyncDispose](): Promise<void> {
    return this.dispose();
  }

  #start(worker: Worker): void {
    const run: Run = { n: ++worker.runs, controller: new AbortController(), settled: Promise.resolve() };
    worker.current = run;
    worker.status = 'running';
    worker.runStartedAt = Date.now();
    worker.endedAt = undefined;
    worker.output = '';
    worker.pid = undefined;
    const keep = this.#options.liveOutputChars ?? 4000;
    const task: WorkerTask = {
      workerId: worker.id,
      label: worker.label,
      brief: fullBrief(worker),
      tier: worker.tier,
      run: run.n,
      cwd: this.#options.cwd,
      signal: run.controller.signal,
      output: (chunk) => {
        if (worker.current !== run) return;
        const text = worker.output + chunk;
        worker.output = text.length > keep ? text.slice(text.length - keep) : text;
      },
      started: ({ pid }) => {
        if (worker.current === run) worker.pid = pid;
      },
    };
    run.settled = runOnce(this.#options.runner, task).then((result) => {
      // A run stopped for a restart hands over to the next run; one replaced after a stop timeout is forgotten.
      if (worker.current !== run || run.stopFor === 'restart') return;
      worker.status = run.stopFor === 'kill' ? 'killed' : result.ok ? 'finished' : 'failed';
      worker.result = result;
      worker.endedAt = Date.now();
      this.#notify(worker);
      this.#evict();
    });
    this.#notify(worker);
  }

  async #stop(worker: Worker): Promise<void> {
    worker.restartPending = false;
    const run = worker.current;
    if (!run) return;
    run.stopFor = 'kill';
    run.controller.abort();
    const confirmed = await this.#settledWithin(run);
    // Normally the run's own settlement marked it killed. It did not when the runner never confirmed the stop,
    // or when the run had already handed over to a restart that this kill cancelled.
    if (worker.current === run && worker.status === 'running') {
      worker.current = undefined;
      worker.status = 'killed';
      worker.endedAt = Date.now();
      const detail = confirmed ? 'stopped' : 'the runner did not confirm that it stopped';
      worker.result = { ok: false, output: worker.output, detail };
      this.#notify(worker);
    }
  }

  #settledWithin(run: Run): Promise<boolean> {
    const ms = this.#options.stopTimeoutMs ?? 8000;
    let timer: NodeJS.Timeout | undefined;
    return Promise.race([
      run.settled.then(() => true),
      new Promise<boolean>((resolve) => {
        timer = setTimeout(resolve, ms, false);
      }),
    ]).finally(() => clearTimeout(timer));
  }

  #notify(worker: Worker): void {
    const previous = worker.changed;
    worker.changed = deferred();
    previous.resolve();
  }

  #find(idOrLabel: string): Worker {
    const key = idOrLabel.trim();
    const byId = this.#workers.get(key);
    if (byId) return byId;
    const byLabel = [...this.#workers.values()].filter((w) => w.label.toLowerCase() === key.toLowerCase());
    if (byLabel.length === 1) return byLabel[0] as Worker;
    const known = this.list().map(describe);
    const which = byLabel.length > 1 ? `Several workers are labelled "${key}"; use the id` : `No worker "${key}"`;
    throw new VibeError(
      'unknown_worker',
      known.length ? `${which}. Workers of this run: ${known.join(', ')}.` : `${which}: no worker has been spawned in this run.`,
    );
  }

  #limitError(what: string): VibeError {
    const running = this.list().filter((w) => w.status === 'running').map(describe);
    return new VibeError(
      'limit',
      `${what}: ${running.length === 1 ? '1 worker is' : `${running.length} workers are`} already running, the limit of this run (${running.join(', ')}). Wait for one with vibe_wait or stop one with vibe_kill, then try again.`,
    );
  }

  #checkOpen(): void {
    if (this.#disposing) throw new VibeError('disposed', 'This run has ended and its workers were stopped; no worker can start.');
  }

  #evict(): void {
    const max = this.#options.maxKept ?? 50;
    const ended = [...this.#workers.values()].filter((w) => w.status !== 'running');
    for (const worker of ended.slice(0, Math.max(0, ended.length - max))) this.#workers.delete(worker.id);
  }
}

function describe(worker: WorkerSnapshot): string {
  return `${worker.id} "${worker.label}" (${worker.status})`;
}

/** The brief a run receives: the original, then each message with a note that earlier work may be on disk. */
function fullBrief(worker: Worker): string {
  if (worker.messages.length === 0) return worker.brief;
  const parts = worker.messages.map(
    (message, i) =>
      `--- Message ${i + 1} from the lead ---\n(You were restarted to take it into account; files may already hold changes from your earlier run.)\n${message}`,
  );
  return [worker.brief, ...parts].join('\n\n');
}

function snapshot(worker: Worker): WorkerSnapshot {
  const end = worker.status === 'running' ? Date.now() : (worker.endedAt ?? Date.now());
  return {
    id: worker.id,
    label: worker.label,
    tier: worker.tier,
    status: worker.status,
    run: worker.runs,
    messages: worker.messages.length,
    pid: worker.pid,
    spawnedAt: worker.spawnedAt,
    runStartedAt: worker.runStartedAt,
    endedAt: worker.status === 'running' ? undefined : worker.endedAt,
    elapsedMs: end - worker.runStartedAt,
    result: worker.result,
    output: worker.output,
  };
}

/** Resolves true when `changed` fires, false on timeout or abort. */
function raceChange(changed: Promise<void>, ms: number, signal: AbortSignal | undefined): Promise<boolean> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => finish(false), ms);
    const onAbort = (): void => finish(false);
    signal?.addEventListener('abort', onAbort, { once: true });
    void changed.then(() => finish(true));
    function finish(value: boolean): void {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
      resolve(value);
    }
  });
}
