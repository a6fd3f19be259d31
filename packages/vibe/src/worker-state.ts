import type { Surface } from '@agent-tools/core';
import { afterDelay } from '@agent-tools/core/internal';
import type { WorkerResult, WorkerTier } from './runner.js';

/** Where a worker is: running (also while it restarts), or how its last run ended. */
export type WorkerStatus = 'running' | 'finished' | 'failed' | 'killed';

/** How the current or last run began: the first run, a continued session, or a fresh start with the longer brief. */
export type RunStart = 'spawned' | 'resumed' | 'restarted';

/** A worker as tools and harness UIs see it: a copy, safe to keep. */
export interface WorkerSnapshot {
  readonly id: string;
  readonly label: string;
  readonly tier: WorkerTier;
  readonly status: WorkerStatus;
  /** How many times it has started: 1, then one more per message sent. */
  readonly run: number;
  /** How many messages were sent to it. */
  readonly messages: number;
  /** The surface of the call that started the current or last run: the most the worker may do. */
  readonly surface: Surface;
  /** How the current or last run began. */
  readonly began: RunStart;
  /** Why a message restarted the worker instead of continuing its session (set when `began` is `restarted`). */
  readonly restartReason: string | undefined;
  /** The agent session of the worker, when its runner reported one. */
  readonly session: string | undefined;
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

/** One run of a worker, while it is current. */
export interface Run {
  readonly n: number;
  readonly controller: AbortController;
  settled: Promise<void>;
  stopFor?: 'kill' | 'restart';
  /** Set by the run's one end (WorkerList's #end): a run ends once, however it ends. */
  ended?: boolean;
}

/** A worker's mutable state inside the list. */
export interface Worker {
  readonly id: string;
  readonly label: string;
  readonly tier: WorkerTier;
  readonly brief: string;
  readonly messages: string[];
  /** How many messages the runs so far have been given. */
  delivered: number;
  status: WorkerStatus;
  surface: Surface;
  began: RunStart;
  restartReason: string | undefined;
  session: string | undefined;
  runs: number;
  current: Run | undefined;
  restartPending: boolean;
  /** Settles once a pending restart has started the next run (or was cancelled); sends meanwhile wait for it. */
  restarting: Promise<void> | undefined;
  pid: number | undefined;
  readonly spawnedAt: number;
  runStartedAt: number;
  endedAt: number | undefined;
  result: WorkerResult | undefined;
  output: string;
  changed: Deferred;
}

export interface Deferred {
  readonly promise: Promise<void>;
  readonly resolve: () => void;
}

export function deferred(): Deferred {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}

export function snapshot(worker: Worker): WorkerSnapshot {
  const end = worker.status === 'running' ? Date.now() : (worker.endedAt ?? Date.now());
  return {
    id: worker.id,
    label: worker.label,
    tier: worker.tier,
    status: worker.status,
    run: worker.runs,
    messages: worker.messages.length,
    surface: worker.surface,
    began: worker.began,
    restartReason: worker.restartReason,
    session: worker.session,
    pid: worker.pid,
    spawnedAt: worker.spawnedAt,
    runStartedAt: worker.runStartedAt,
    endedAt: worker.status === 'running' ? undefined : worker.endedAt,
    elapsedMs: end - worker.runStartedAt,
    result: worker.result,
    output: worker.output,
  };
}

/** `w1 "label" (running)`: how errors list workers. */
export function describe(worker: WorkerSnapshot): string {
  return `${worker.id} "${worker.label}" (${worker.status})`;
}

/** Resolves true when `changed` fires, false on timeout or abort. */
export function raceChange(changed: Promise<void>, ms: number, signal: AbortSignal | undefined): Promise<boolean> {
  return new Promise((resolve) => {
    // afterDelay, not setTimeout: a wait of Infinity would end after 1 ms.
    const cancel = afterDelay(ms, () => finish(false));
    const onAbort = (): void => finish(false);
    signal?.addEventListener('abort', onAbort, { once: true });
    void changed.then(() => finish(true));
    function finish(value: boolean): void {
      cancel();
      signal?.removeEventListener('abort', onAbort);
      resolve(value);
    }
  });
}
