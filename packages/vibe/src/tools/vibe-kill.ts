import { defineTool, type ToolResult, textResult } from '@agent-tools/core';
import { capTextTail, formatDuration } from '@agent-tools/core/internal';
import { z } from 'zod';
import { statusPhrase, workerName } from '../format.js';
import { noticeKey } from '../notice.js';
import { plainOutput } from '../plain-output.js';
import type { WorkerList } from '../worker-list.js';
import type { WorkerSnapshot } from '../worker-state.js';
import { workerIdParameter } from './shared.js';

/** The parameters of `vibe_kill`. */
export const vibeKillParameters = z.object({ worker_id: workerIdParameter });

const DESCRIPTION = `Stop a running worker, with everything it started. Use it when a worker goes the wrong way and a correction would not help, or when its task is no longer needed. Files it already changed stay changed. A stopped worker can be given new instructions later with vibe_send.`;

/** Builds `vibe_kill` over a worker list. */
export function vibeKillTool(workers: WorkerList) {
  return defineTool({
    name: 'vibe_kill',
    tier: 'read',
    description: DESCRIPTION,
    parameters: vibeKillParameters,
    parallelSafe: true,
    async execute(params, ctx): Promise<ToolResult<{ worker: WorkerSnapshot; wasRunning: boolean }>> {
      const { worker, wasRunning } = await workers.kill(params.worker_id);
      ctx.notices.withdraw(noticeKey(worker));
      if (!wasRunning) {
        return textResult(`Worker ${workerName(worker)} had already ended (${statusPhrase(worker)}); nothing to stop.`, {
          worker,
          wasRunning,
        });
      }
      const output = plainOutput(worker.result?.output ?? '');
      const tail = output ? ` Its output before it was killed:\n${capTextTail(output, 2000)}` : '';
      return textResult(`Killed worker ${workerName(worker)} after ${formatDuration(worker.elapsedMs)}.${tail}`, {
        worker,
        wasRunning,
      });
    },
  });
}
