import { defineTool, errorResult, type ToolContext, textResult } from '@agent-tools/core';
import { capTextTail, formatDuration } from '@agent-tools/core/internal';
import { z } from 'zod';
import { statusPhrase, workerName } from '../format.js';
import { noticeKey } from '../notice.js';
import { plainOutput } from '../plain-output.js';
import type { WorkerList } from '../worker-list.js';
import { workerIdParameter } from './shared.js';

/** The longest a single vibe_wait may block. */
export const MAX_WAIT_SECONDS = 1800;

/** The parameters of `vibe_wait`. */
export const vibeWaitParameters = z.object({
  worker_id: workerIdParameter,
  timeout_seconds: z
    .number()
    .positive()
    .max(MAX_WAIT_SECONDS)
    .default(120)
    .describe(`How long to wait at most (default 120, at most ${MAX_WAIT_SECONDS}). The worker keeps running if the time runs out.`),
});

/** How much of a worker's result a wait returns (the end of it: agents summarise last). */
const RESULT_CHARS = 20_000;

const DESCRIPTION = `Wait for a worker to finish and get its result. Blocks until the worker ends or timeout_seconds pass, and says which: a worker still running after the timeout keeps working, and you can wait again, steer it with vibe_send, or stop it with vibe_kill.

A finished worker's result is what it printed (the end of it when long). A failed worker comes back as an error with its output and exit status: read it, then vibe_send a correction or do the task yourself.`;

/** Builds `vibe_wait` over a worker list. */
export function vibeWaitTool(workers: WorkerList) {
  return defineTool({
    name: 'vibe_wait',
    tier: 'read',
    description: DESCRIPTION,
    parameters: vibeWaitParameters,
    parallelSafe: true,
    // Bounded by timeout_seconds itself; the registry's default call timeout would cut a long wait short.
    timeoutMs: (MAX_WAIT_SECONDS + 30) * 1000,
    async execute(params, ctx) {
      const stopReporting = reportWhileWaiting(workers, params.worker_id, ctx);
      const { worker, ended } = await workers.wait(params.worker_id, params.timeout_seconds * 1000, ctx.signal).finally(stopReporting);
      // The answer carries the result, so the notice of the same ending would only repeat it.
      if (ended) ctx.notices.withdraw(noticeKey(worker));
      const structured = { worker, ended };
      if (!ended) {
        const soFar = plainOutput(worker.output);
        const output = soFar ? `\nOutput so far:\n${capTextTail(soFar, 1000)}` : '';
        return textResult(
          `Worker ${workerName(worker)} is still running: the wait timed out after ${formatDuration(params.timeout_seconds * 1000)} (this run has taken ${formatDuration(worker.elapsedMs)} so far). It keeps working in the background; call vibe_wait again to wait longer, vibe_send to steer it, or vibe_kill to stop it.${output}`,
          structured,
        );
      }
      const output = plainOutput(worker.result?.output ?? '');
      const shown = output ? capTextTail(output, RESULT_CHARS) : '(no output)';
      switch (worker.status) {
        case 'finished':
          return textResult(`Worker ${workerName(worker)} ${statusPhrase(worker)}. Result:\n${shown}`, structured);
        case 'killed':
          return textResult(`Worker ${workerName(worker)} was ${statusPhrase(worker)}. Its output before it was killed:\n${shown}`, structured);
        default:
          return errorResult(
            `Worker ${workerName(worker)} ${statusPhrase(worker)}. Its output:\n${shown}\nRead what went wrong, then vibe_send a correction or do the task yourself.`,
            structured,
          );
      }
    },
  });
}

/** How often a wait says how the worker is doing. */
const PROGRESS_MS = 1000;
/** How much of the worker's latest output a progress report carries. */
const PROGRESS_CHARS = 2000;

/** While a wait blocks, tells the caller every second how long the worker has run and its latest output. */
function reportWhileWaiting(workers: WorkerList, id: string, ctx: ToolContext): () => void {
  const timer = setInterval(() => {
    // A throw in a timer would end the process: a worker gone from the list (a VibeError) only ends the reports,
    // anything else is a bug, told to the harness.
    try {
      const worker = workers.get(id);
      if (worker.status !== 'running') return;
      // Only the end is reported: cleaning the whole output (up to a million characters) every second is waste. The
      // window is twice what is kept, so a code cut at its start falls in the half that is dropped.
      const output = plainOutput(worker.output.slice(-2 * PROGRESS_CHARS));
      ctx.reportProgress({
        message: `worker ${workerName(worker)} running for ${formatDuration(worker.elapsedMs)}`,
        ...(output ? { output: output.slice(-PROGRESS_CHARS) } : {}),
      });
    } catch (error) {
      clearInterval(timer);
      ctx.reportError(error);
    }
  }, PROGRESS_MS);
  timer.unref();
  return () => clearInterval(timer);
}
