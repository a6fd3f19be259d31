import { defineTool, textResult } from '@agent-tools/core';
import { z } from 'zod';
import { workerName } from '../format.js';
import type { WorkerList } from '../worker-list.js';
import { workerIdParameter } from './shared.js';

/** The parameters of `vibe_send`. */
export const vibeSendParameters = z.object({
  worker_id: workerIdParameter,
  message: z
    .string()
    .trim()
    .min(1, 'the message is empty; say what the worker should do differently')
    .describe('New instructions or a correction, written for the worker.'),
});

const DESCRIPTION = `Send a worker more instructions. The message is appended to its brief and the worker restarts with the whole brief (a running worker is stopped first; a finished one starts again), so nothing you send is dropped. Files may already hold changes from its earlier run; the worker is told so.

Use it to correct course ("also update the tests", "keep the public API unchanged") or to hand a finished worker a follow-up. Then call vibe_wait for the new result.`;

/** Builds `vibe_send` over a worker list. */
export function vibeSendTool(workers: WorkerList) {
  return defineTool({
    name: 'vibe_send',
    tier: 'read',
    description: DESCRIPTION,
    parameters: vibeSendParameters,
    parallelSafe: true,
    async execute(params) {
      const worker = await workers.send(params.worker_id, params.message);
      const messages = worker.messages === 1 ? '1 message' : `${worker.messages} messages`;
      return textResult(
        `Sent to ${workerName(worker)}: it restarted with your message appended to its brief (run ${worker.run}, ${messages} so far) and runs in the background. Call vibe_wait with worker_id "${worker.id}" for its result.`,
        { worker },
      );
    },
  });
}
