import { AgentToolsError, errorDetail, type Surface } from '@agent-tools/core';
import { causedByAbort } from '@agent-tools/core/internal';
import { admitsEverything } from './surface-policy.js';

/** `fast` for mechanical work with a clear spec; `good` for design, judgement, or reviewing a fast worker's output. */
export type WorkerTier = 'fast' | 'good';

/** The worker tiers, in order. */
export const WORKER_TIERS: readonly WorkerTier[] = Object.freeze(['fast', 'good']);

/** What a resumed run continues, and with what. */
export interface WorkerResume {
  /** The session id the worker's earlier run reported (see {@link WorkerTask.session}). */
  readonly session: string;
  /** The lead's messages since the last run, in order, to continue the session with. */
  readonly message: string;
}

/**
 * One run of a worker, as its runner receives it. A worker runs again after each message: continuing its session
 * (`resume`) when the runner can, else from scratch with the longer brief.
 */
export interface WorkerTask {
  readonly workerId: string;
  readonly label: string;
  /** The whole brief: the original one, then every message sent since, in order. */
  readonly brief: string;
  /**
   * Set when this run continues the session of the worker's earlier run: the runner resumes `resume.session` with
   * `resume.message` instead of starting over with `brief`. Only given to a runner whose `canResume` says yes.
   */
  readonly resume?: WorkerResume;
  /**
   * The surface of the call that started this run (vibe_spawn or vibe_send): its name and the tiers it admits.
   * The worker must do no more than that surface admits: on a read-only surface, only read. The runner is only
   * asked to run on a surface its `canRun` accepts.
   */
  readonly surface: Surface;
  readonly tier: WorkerTier;
  /** 1 for the first run, 2 after the first restart, ... */
  readonly run: number;
  /** The working directory of the run the worker belongs to. */
  readonly cwd: string | undefined;
  /** Aborted when the worker must stop (killed, restarted, or the run ended). Stop promptly, then settle. */
  readonly signal: AbortSignal;
  /** Reports output as it comes, so `vibe_list` can show a running worker's progress. */
  output(chunk: string): void;
  /** Reports the process id, when the worker is a process (shown in listings, used by tests). */
  started(info: { readonly pid: number }): void;
  /** Reports the id of the agent session the run works in, as soon as it is known, so a later message can resume it. */
  session(id: string): void;
}

/** How a run ended, as a runner reports it. */
export interface WorkerResult {
  /** Whether the worker did its job (a process exiting 0). */
  readonly ok: boolean;
  /** What the worker produced: the result the lead reads. */
  readonly output: string;
  /** How it ended, for the lead ("exit code 3", "killed by SIGKILL"). */
  readonly detail?: string;
  /** The agent session the run worked in, when known only at the end (else report it with `task.session`). */
  readonly session?: string;
}

/**
 * Runs one brief to its end. It may resolve with a result (or just the output text), or be an async iterable of
 * output chunks whose concatenation is the result. Throwing means the run failed.
 */
export type WorkerRun = (task: WorkerTask) => Promise<WorkerResult | string> | AsyncIterable<string>;

/** A run function with what it can do declared. */
export interface WorkerRunnerSpec {
  readonly run: WorkerRun;
  /**
   * Whether it can run a worker for a surface: only if it holds the worker to what the surface admits. Default:
   * only surfaces that admit every tier (write and exec), so a read-only surface is refused unless the runner
   * says it confines workers there (the process runner does when it has a `readOnlyCommand`).
   */
  canRun?(surface: Surface): boolean;
  /** Whether it can continue a session (`task.resume`) on a surface. Default: never; a message restarts the worker. */
  canResume?(surface: Surface): boolean;
  /**
   * What the harness's user would configure so workers can start on a surface `canRun` refuses, for the refusal
   * the model reads ("give the process runner a readOnlyCommand").
   */
  readonly readOnlyHint?: string;
}

/**
 * What a worker *is*, supplied by the harness: a run function (which can then only run on surfaces that admit
 * every tier, and never resumes), or a {@link WorkerRunnerSpec} that says more. The package owns the lifecycle
 * around it; `processRunner` starts a command-line agent.
 */
export type WorkerRunner = WorkerRun | WorkerRunnerSpec;

/** A runner with its defaults filled in. */
export interface RunnerCapabilities {
  readonly run: WorkerRun;
  canRun(surface: Surface): boolean;
  canResume(surface: Surface): boolean;
  readonly readOnlyHint: string | undefined;
}

/** Reads what a runner can do, with the safe defaults for what it does not say. */
export function capabilities(runner: WorkerRunner): RunnerCapabilities {
  if (typeof runner === 'function') {
    return { run: runner, canRun: admitsEverything, canResume: () => false, readOnlyHint: undefined };
  }
  return {
    run: runner.run,
    canRun: (surface) => (runner.canRun ? runner.canRun(surface) : admitsEverything(surface)),
    canResume: (surface) => runner.canResume?.(surface) ?? false,
    readOnlyHint: runner.readOnlyHint,
  };
}

/**
 * Runs a runner once and folds whatever shape it answers in into a result; never rejects. A throw that is not a
 * stop's (the task was not aborted) and not an AgentToolsError is a bug in the runner: `onUnexpected` hears of it,
 * and the worker fails with its message either way.
 */
export async function runOnce(runner: WorkerRun, task: WorkerTask, onUnexpected?: (error: unknown) => void): Promise<WorkerResult> {
  try {
    const answer = runner(task);
    if (isAsyncIterable(answer)) {
      let output = '';
      for await (const chunk of answer) {
        output += chunk;
        task.output(chunk);
        if (task.signal.aborted) break;
      }
      return { ok: true, output };
    }
    const result = await answer;
    return typeof result === 'string' ? { ok: true, output: result } : result;
  } catch (error) {
    // A stop's own error (the abort, an AgentToolsError) is no bug; anything else is, stopped or not.
    if (!AgentToolsError.isInstance(error) && !(task.signal.aborted && causedByAbort(error, task.signal.reason))) onUnexpected?.(error);
    // The detail is read by a model in a sentence that already names the worker: no package prefix.
    return { ok: false, output: '', detail: errorDetail(error) };
  }
}

function isAsyncIterable(value: unknown): value is AsyncIterable<string> {
  return typeof value === 'object' && value !== null && Symbol.asyncIterator in value;
}
