import { defineTool, textResult } from '@agent-tools/core';
import { z } from 'zod';
import { statusPhrase, workerName } from '../format.js';
import type { WorkerList } from '../worker-list.js';
import { notAnOption, workerIdParameter } from './shared.js';

/** The parameters of `vibe_send`. */
export const vibeSendParameters = z.object({
  worker_id: workerIdParameter,
  message: z
    .string()
    .trim()
    .min(1, 'the message is empty; say what the worker should do differently')
    .refine(...notAnOption)
    .describe('New instructions or a correction, written for the worker.'),
});

const DESCRIPTION = `Send a worker more instructions (a running worker is stopped first; a finished one starts again), so nothing you send is dropped. Where the harness's workers can resume, the worker continues its own session with your message and keeps what it learnt; otherwise it restarts from scratch with your message appended to its brief, and is told that files may already hold changes from its earlier run. The answer says which.

Use it to correct course ("also update the tests", "keep the public API unchanged") or to hand a finished worker a follow-up. Then call vibe_wait for the new result. A worker started from a surface with more power than yours (for instance before plan mode began) cannot be sent work from yours; you can still wait for it, list it or kill it.`;

/** Builds `vibe_send` over a worker list. */
export function vibeSendTool(workers: WorkerList) {
  return defineTool({
    name: 'vibe_send',
    tier: 'read',
    description: DESCRIPTION,
    parameters: vibeSendParameters,
    parallelSafe: true,
    async execute(params, ctx) {
      const worker = await workers.send(params.worker_id, params.message, { surface: ctx.surface });
      const messages = worker.messages === 1 ? '1 message' : `${worker.messages} messages`;
      const how =
        worker.began === 'resumed'
          ? 'it continues its session with your message'
          : `it restarted from scratch with your message appended to its brief, because ${worker.restartReason ?? 'its session could not be continued'}`;
      const state =
        worker.status === 'running'
          ? `It runs in the background; call vibe_wait with worker_id "${worker.id}" for its result.`
          : `It has already ${statusPhrase(worker)}; call vibe_wait with worker_id "${worker.id}" for its result.`;
      return textResult(`Sent to ${workerName(worker)} (run ${worker.run}, ${messages} so far): ${how}. ${state}`, {
        worker,
        resumed: worker.began === 'resumed',
      });
    },
  });
}
