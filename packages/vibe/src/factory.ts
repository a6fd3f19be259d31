import { defineFactory } from '@agent-tools/core';
import { endNotice } from './notice.js';
import { vibeKillTool } from './tools/vibe-kill.js';
import { vibeListTool } from './tools/vibe-list.js';
import { vibeSendTool } from './tools/vibe-send.js';
import { vibeSpawnTool } from './tools/vibe-spawn.js';
import { vibeWaitTool } from './tools/vibe-wait.js';
import type { WorkerList } from './worker-list.js';

declare module '@agent-tools/core' {
  interface Resources {
    /** The run's background workers. Vibe mode is on when a run has one; the registry disposes it (killing them). */
    workerList?: WorkerList;
  }
}

/**
 * The factory of @agent-tools/vibe. It registers vibe_spawn, vibe_send, vibe_wait, vibe_kill and vibe_list (all read
 * tier: the gate belongs to the workers' own tools, which run with the surface of the call that started them) when
 * the run has a `workerList`, which a harness provides only when vibe mode is on. When a worker ends, a notice is
 * appended to the model's next tool result.
 */
export const vibeTools = defineFactory({
  name: '@agent-tools/vibe',
  needs: ['workerList'],
  create: ({ workerList }, run) => {
    const ended = run ? workerList.onEnd((worker) => run.notices.post(endNotice(worker))) : () => {};
    // A runner's bug and an end listener's, outside any call, go to the run's onError.
    const bugs = run ? workerList.onBackgroundError(run.reportError) : () => {};
    const stop = (): void => {
      ended();
      bugs();
    };
    return {
      tools: [
        vibeSpawnTool(workerList),
        vibeSendTool(workerList),
        vibeWaitTool(workerList),
        vibeKillTool(workerList),
        vibeListTool(workerList),
      ],
      dispose: stop,
    };
  },
});
