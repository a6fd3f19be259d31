import { defaultSurface, errorDetail, type Surface } from '@agent-tools/core';
import { afterDelay, BackgroundErrors, type BackgroundReporter } from '@agent-tools/core/internal';
import { fullBrief, resumeMessage } from './brief.js';
import { VibeError } from './errors.js';
import {
  capabilities,
  type RunnerCapabilities,
  runOnce,
  type WorkerResult,
  type WorkerRunner,
  type WorkerTask,
  type WorkerTier,
} from './runner.js';
import { surfacePhrase, widens } from './surface-policy.js';
import {
  deferred,
  describe,
  type Run,
  raceChange,
  snapshot,
  type Worker,
  type WorkerSnapshot,
  type WorkerStatus,
} from './worker-state.js';

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
  /**
   * Told of an unexpected throw (a bug in the runner, the worker fails with its message either way, or in an `onEnd`
   * listener) while no run listens: the factory subscribes the run's `reportError`, which tells the registry's
   * `onError` (`phase: 'background'`), so with a registry this is needed for nothing but a list used alone.
   */
  readonly onError?: (error: unknown) => void;
}

/** What {@link WorkerList.spawn} needs. */
export interface SpawnSpec {
  readonly brief: string;
  readonly label: string;
  readonly tier?: WorkerTier;
  /** The surface of the call that spawns it (default: the default surface, every tier). */
  readonly surface?: Surface;
}

/** What {@link WorkerList.send} needs beside the worker and the message. */
export interface SendOptions {
  /** The surface of the call that sends (default: the default surface, every tier). */
  readonly surface?: Surface;
}

/** Told when a worker's run ends (finished, failed or killed); not when a message restarts it. */
export type WorkerEndListener = (worker: WorkerSnapshot) => void;

/** The tier a worker gets when none is named: the careful one, since a wrong `fast` costs quality silently. */
export const DEFAULT_TIER: WorkerTier = 'good';

/**
 * The background workers of one run, and their lifecycle: spawn returns at once; a message continues the worker's
 * session when the runner can resume one, else restarts it with the message appended to its brief (never dropped);
 * wait blocks until the worker ends or a timeout; kill stops it; disposing the list kills every worker. Each run
 * carries the surface of the call that started it, and a surface may neither start a worker its runner cannot hold
 * to that surface, nor steer a worker started with more power than it has. This is the `workerList` resource;
 * vibe mode is on when a run has one.
 */
export class WorkerList implements AsyncDisposable {
  readonly maxRunning: number;
  readonly #options: WorkerListOptions;
  readonly #runner: RunnerCapabilities;
  readonly #workers = new Map<string, Worker>();
  readonly #listeners = new Set<WorkerEndListener>();
  /** Where the workers' bugs go: every run that subscribed, else `onError`, else a process warning. */
  readonly #background: BackgroundErrors;
  #seq = 0;
  #disposing: Promise<void> | undefined;

  constructor(options: WorkerListOptions) {
    this.#options = options;
    this.#runner = capabilities(options.runner);
    this.#background = new BackgroundErrors(options.onError);
    this.maxRunning = Math.max(1, options.maxRunning ?? 4);
  }

  /** How many workers are running now. */
  get running(): number {
    return [...this.#workers.values()].filter((w) => w.status === 'running').length;
  }

  /** Whether the runner can start workers for a surface (false: spawns and sends from there are refused). */
  canRunOn(surface: Surface): boolean {
    return this.#runner.canRun(surface);
  }

  /**
   * Starts a worker and returns at once. Throws {@link VibeError} `limit` past `maxRunning`, and `surface` when
   * the runner cannot hold a worker to what the spawning surface admits.
   */
  spawn(spec: SpawnSpec): WorkerSnapshot {
    this.#checkOpen();
    const surface = spec.surface ?? defaultSurface;
    this.#checkRunner(surface, `A worker cannot start from ${surfacePhrase(surface)}`);
    if (this.running >= this.maxRunning) throw this.#limitError(`Cannot start "${spec.label}"`);
    const now = Date.now();
    const worker: Worker = {
      id: `w${++this.#seq}`,
      label: spec.label.trim(),
      tier: spec.tier ?? DEFAULT_TIER,
      brief: spec.brief,
      messages: [],
      delivered: 0,
      status: 'running',
      surface,
      began: 'spawned',
      restartReason: undefined,
      session: undefined,
      runs: 0,
      current: undefined,
      restartPending: false,
      restarting: undefined,
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
   * Sends a worker a message and runs it again (a running worker is stopped first; an ended one starts again):
   * continuing its session with the message when the runner can resume it, else from scratch with the message
   * appended to its brief (`began` and `restartReason` of the answer say which). Messages sent while a restart is
   * pending join it. Throws, without delivering the message: `limit` when an ended worker cannot start again
   * because too many run; `surface` when the sending surface admits less than the worker's run had, or the runner
   * cannot hold a worker to it.
   */
  async send(idOrLabel: string, message: string, options: SendOptions = {}): Promise<WorkerSnapshot> {
    this.#checkOpen();
    const worker = this.#find(idOrLabel);
    const surface = options.surface ?? defaultSurface;
    if (widens(surface, worker.surface)) {
      throw new VibeError(
        'surface',
        `Worker ${worker.id} "${worker.label}" was started from ${surfacePhrase(worker.surface)} and cannot be sent new work from ${surfacePhrase(surface)}: it would carry the work out with more than this surface allows.`,
        { hint: 'From here you can still wait for it (vibe_wait), list it (vibe_list) or stop it (vibe_kill).' },
      );
    }
    this.#checkRunner(surface, `Worker ${worker.id} "${worker.label}" cannot be sent work from ${surfacePhrase(surface)}`);
    if (worker.status !== 'running' && this.running >= this.maxRunning) {
      throw this.#limitError(`Cannot restart ${worker.id} "${worker.label}" with your message, so it was not delivered`);
    }
    worker.messages.push(message);
    // A later send decides the surface of the next run; the check above held it within the caller's.
    worker.surface = surface;
    if (worker.restarting) {
      await worker.restarting;
      return snapshot(worker);
    }
    const old = worker.current;
    if (worker.status === 'running' && old) {
      old.stopFor = 'restart';
      worker.restartPending = true;
      old.controller.abort();
      worker.restarting = this.#settledWithin(old).then(() => {
        worker.restarting = undefined;
        // A kill or the end of the run while it stopped cancels the restart; the message stays with the worker.
        if (!worker.restartPending) return;
        worker.restartPending = false;
        this.#start(worker, true);
      });
      await worker.restarting;
      return snapshot(worker);
    }
    this.#start(worker);
    return snapshot(worker);
  }

  /**
   * Tells `reporter` of a bug outside any call (a runner's, an `onEnd` listener's); the factory subscribes the run's
   * `reportError`. Returns the function that stops telling it.
   */
  onBackgroundError(reporter: BackgroundReporter): () => void {
    return this.#background.subscribe(reporter);
  }

  /** Tells `listener` whenever a worker's run ends; returns the function that stops telling it. */
  onEnd(listener: WorkerEndListener): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
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

  /** Stops a running worker (its whole process tree, with the process runner); says whether it was running. */
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

  /**
   * Starts the worker's next run: its first, a resumed session, or a fresh start with the whole brief. What the
   * runner's `canResume` throws ends the run failed and is thrown on.
   */
  #start(worker: Worker, interrupted = false): void {
    const run: Run = { n: ++worker.runs, controller: new AbortController(), settled: Promise.resolve() };
    const fresh = worker.messages.slice(worker.delivered);
    worker.delivered = worker.messages.length;
    worker.current = run;
    worker.status = 'running';
    worker.runStartedAt = Date.now();
    worker.endedAt = undefined;
    worker.output = '';
    worker.pid = undefined;
    let resumable: boolean;
    try {
      resumable = run.n > 1 && this.#runner.canResume(worker.surface);
    } catch (error) {
      // The runner's hook: the run cannot start without its answer, so it ends failed at once (it would stay "running"
      // with nothing running), saying why. The send that started it fails with the error, which the registry reports
      // (once: a second send waiting for the same restart fails with the same error).
      this.#end(worker, run, 'failed', { ok: false, output: '', detail: `its runner could not say whether it can continue the session: ${errorDetail(error)}` });
      this.#evict();
      throw error;
    }
    const resume = resumable && worker.session !== undefined ? { session: worker.session, message: resumeMessage(fresh, interrupted) } : undefined;
    worker.began = run.n === 1 ? 'spawned' : resume ? 'resumed' : 'restarted';
    worker.restartReason =
      worker.began !== 'restarted'
        ? undefined
        : resumable
          ? 'its earlier run reported no session to continue'
          : 'this worker runner cannot continue a session';
    const keep = this.#options.liveOutputChars ?? 4000;
    const task: WorkerTask = {
      workerId: worker.id,
      label: worker.label,
      brief: fullBrief(worker.brief, worker.messages),
      ...(resume ? { resume } : {}),
      surface: worker.surface,
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
      session: (id) => {
        if (worker.current === run && id) worker.session = id;
      },
    };
    run.settled = runOnce(this.#runner.run, task, (error) => this.#reportError(error)).then((result) => {
      if (worker.current === run && result.session) worker.session = result.session;
      // A run stopped for a restart hands over to the next run; one replaced after a stop timeout is forgotten.
      if (worker.current !== run || run.stopFor === 'restart') return;
      this.#end(worker, run, run.stopFor === 'kill' ? 'killed' : result.ok ? 'finished' : 'failed', result);
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
      const detail = confirmed ? 'stopped' : 'the runner did not confirm that it stopped';
      this.#end(worker, run, 'killed', { ok: false, output: worker.output, detail });
    }
  }

  /**
   * The one end of a run, whichever way it ends (it settled, or a stop gave up waiting for it): sets the worker's
   * status, result and end time, then waiters wake and listeners hear of it. Once per run: a run that settles after
   * a stop already ended it changes nothing.
   */
  #end(worker: Worker, run: Run, status: WorkerStatus, result: WorkerResult): void {
    if (run.ended) return;
    run.ended = true;
    worker.status = status;
    worker.result = result;
    worker.endedAt = Date.now();
    this.#notify(worker);
    const ended = snapshot(worker);
    for (const listener of this.#listeners) {
      try {
        listener(ended);
      } catch (error) {
        this.#reportError(error);
      }
    }
  }

  #reportError(error: unknown): void {
    this.#background.report(error);
  }

  #checkRunner(surface: Surface, what: string): void {
    if (this.#runner.canRun(surface)) return;
    const hint =
      this.#runner.readOnlyHint ??
      'give its worker runner a read-only command (the process runner\'s readOnlyCommand, such as the agent\'s own plan or read-only mode)';
    throw new VibeError(
      'surface',
      `${what}: a worker is another agent with tools of its own, and this harness has configured no way to hold one to what this surface allows, so it could change files or run commands from here.`,
      {
        hint: `Continue with the tools this surface has, or ask the user to leave this mode. To allow workers here, the harness must ${hint.replace(/\.$/, '')}.`,
      },
    );
  }

  #settledWithin(run: Run): Promise<boolean> {
    const ms = this.#options.stopTimeoutMs ?? 8000;
    let cancel = (): void => undefined;
    return Promise.race([
      run.settled.then(() => true),
      new Promise<boolean>((resolve) => {
        // afterDelay, not setTimeout: a stop timeout of Infinity would give up after 1 ms.
        cancel = afterDelay(ms, () => resolve(false));
      }),
    ]).finally(() => cancel());
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
