import { errorDetail } from '@agent-tools/core';

/** `fast` for mechanical work with a clear spec; `good` for design, judgement, or reviewing a fast worker's output. */
export type WorkerTier = 'fast' | 'good';

/** The worker tiers, in order. */
export const WORKER_TIERS: readonly WorkerTier[] = Object.freeze(['fast', 'good']);

/** One run of a worker, as its runner receives it. A worker runs again, with a longer brief, after each message. */
export interface WorkerTask {
  readonly workerId: string;
  readonly label: string;
  /** The whole brief: the original one, then every message sent since, in order. */
  readonly brief: string;
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
}

/** How a run ended, as a runner reports it. */
export interface WorkerResult {
  /** Whether the worker did its job (a process exiting 0). */
  readonly ok: boolean;
  /** What the worker produced: the result the lead reads. */
  readonly output: string;
  /** How it ended, for the lead ("exit code 3", "killed by SIGKILL"). */
  readonly detail?: string;
}

/**
 * What a worker *is*, supplied by the harness: runs one brief to its end. It may resolve with a result (or just
 * the output text), or be an async iterable of output chunks whose concatenation is the result. Throwing means
 * the run failed. The package owns the lifecycle around it; `processRunner` starts a command-line agent.
 */
export type WorkerRunner = (task: WorkerTask) => Promise<WorkerResult | string> | AsyncIterable<string>;

/** Runs a runner once and folds whatever shape it answers in into a result; never rejects. */
export async function runOnce(runner: WorkerRunner, task: WorkerTask): Promise<WorkerResult> {
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
    // The detail is read by a model in a sentence that already names the worker: no package prefix.
    return { ok: false, output: '', detail: errorDetail(error) };
  }
}

function isAsyncIterable(value: unknown): value is AsyncIterable<string> {
  return typeof value === 'object' && value !== null && Symbol.asyncIterator in value;
}
