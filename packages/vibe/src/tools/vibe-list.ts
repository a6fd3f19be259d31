import { defineTool, textResult } from '@agent-tools/core';
import { capList } from '@agent-tools/core/internal';
import { z } from 'zod';
import { listEntry } from '../format.js';
import { noticeKey } from '../notice.js';
import type { WorkerList } from '../worker-list.js';

/** The parameters of `vibe_list` (none). */
export const vibeListParameters = z.object({});

/** How much of each worker's last result or output a listing shows. */
const RESULT_CHARS = 300;
/** How many workers a listing shows. */
const MAX_SHOWN = 50;

const DESCRIPTION = `List this run's workers: id, label, tier, status (running, finished, failed, killed), how long the current or last run took, and the end of its last result (or of its output so far while it runs). Use vibe_wait for a worker's full result.`;

/** Builds `vibe_list` over a worker list. */
export function vibeListTool(workers: WorkerList) {
  return defineTool({
    name: 'vibe_list',
    tier: 'read',
    description: DESCRIPTION,
    parameters: vibeListParameters,
    parallelSafe: true,
    execute(_params, ctx) {
      const all = workers.list();
      for (const worker of all) if (worker.status !== 'running') ctx.notices.withdraw(noticeKey(worker));
      if (all.length === 0) {
        return textResult('No workers yet. Start one with vibe_spawn.', { workers: [] });
      }
      const shown = capList([...all].reverse(), MAX_SHOWN);
      const count = all.length === 1 ? '1 worker' : `${all.length} workers`;
      const head = `${count}, ${workers.running} running (at most ${workers.maxRunning} at once)${shown.note ? `; ${shown.note}, newest first` : ''}:`;
      return textResult([head, ...[...shown.items].reverse().map((w) => listEntry(w, RESULT_CHARS))].join('\n'), { workers: all });
    },
  });
}
