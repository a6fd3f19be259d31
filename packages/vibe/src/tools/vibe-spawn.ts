import { defineTool, errorResult, textResult } from '@agent-tools/core';
import { z } from 'zod';
import { workerName } from '../format.js';
import { noticeKey } from '../notice.js';
import type { WorkerList } from '../worker-list.js';
import { notAnOption } from './shared.js';

/** The parameters of `vibe_spawn`. */
export const vibeSpawnParameters = z.object({
  brief: z
    .string()
    .trim()
    .min(1, 'the brief is empty; describe the task the worker should do')
    .refine(...notAnOption)
    .describe('The whole task, self-contained: the worker does not see this conversation. Say what to change, where, how to check it, and what to report back.'),
  label: z
    .string()
    .trim()
    .min(1, 'give the worker a short label')
    .refine(...notAnOption)
    .max(80)
    .describe('A short name for the worker ("parser tests"), shown in listings.'),
  tier: z
    .enum(['fast', 'good'])
    .optional()
    .describe('"fast" for mechanical work with a clear spec; "good" for design, judgement, or reviewing a fast worker\'s output. Default: good.'),
});

const DESCRIPTION = `Start a background worker (another coding agent) on a task and return at once with its id; the worker keeps running while you do other things.

Delegate self-contained tasks: the brief is all the worker knows, so include the goal, the files, the constraints and how to verify. Choose the tier: "fast" for mechanical work with a clear spec (renames, boilerplate, applying a known fix in many places), "good" for design, judgement, or reviewing a fast worker's output.

When a worker ends you are told on your next tool result, whatever tool it is; vibe_wait blocks for its full result, vibe_send adds instructions, vibe_kill stops it, vibe_list shows every worker. Only a few workers may run at once; past the limit the spawn is refused until one ends.

A worker may do no more than the surface you call from: in plan mode or as a read-only subagent it only reads, and the spawn is refused when the harness has no way to hold a worker to that.`;

/** Builds `vibe_spawn` over a worker list. */
export function vibeSpawnTool(workers: WorkerList) {
  return defineTool({
    name: 'vibe_spawn',
    tier: 'read',
    description: DESCRIPTION,
    parameters: vibeSpawnParameters,
    parallelSafe: true,
    async execute(params, ctx) {
      const started = workers.spawn({
        brief: params.brief,
        label: params.label,
        surface: ctx.surface,
        ...(params.tier ? { tier: params.tier } : {}),
      });
      // One turn of the event loop, so a worker that cannot start at all (no such command) is reported now. One
      // that started (has a pid) and failed quickly is the worker's own failure, reported by vibe_wait.
      await new Promise((resolve) => setImmediate(resolve));
      const now = workers.get(started.id);
      if (now.status === 'failed' && now.pid === undefined) {
        ctx.notices.withdraw(noticeKey(now));
        return errorResult(
          `Worker ${workerName(now)} could not start: ${now.result?.detail ?? 'its runner failed'}. This is a problem with the harness's worker setup, not with your brief; do the task yourself or tell the user.`,
          { worker: now },
        );
      }
      return textResult(
        `Started worker ${workerName(started)} (tier ${started.tier}). It runs in the background; carry on with other work: you will be told on a later tool result when it ends. Call vibe_wait with worker_id "${started.id}" to block for its result, vibe_send to add instructions, vibe_kill to stop it. Running now: ${workers.running} of ${workers.maxRunning}.`,
        { worker: now },
      );
    },
  });
}
