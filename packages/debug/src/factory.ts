import { defineFactory } from '@agent-tools/core';
import type { DebugSupervisor } from './supervisor.js';
import { debugTool } from './tools/debug.js';

declare module '@agent-tools/core' {
  interface Resources {
    /** The debug-session supervisor (`createDebugSupervisor()`); the registry disposes it with the run. */
    debugSupervisor?: DebugSupervisor;
  }
}

/**
 * The factory of @agent-tools/debug. It registers `debug` (exec tier, not parallel-safe) when the run has a
 * working directory, a conversation id and a debug supervisor. Whether an adapter can start is decided per
 * call, so the tool stays registered and `adapters` can say why none can.
 */
export const debugTools = defineFactory({
  name: '@agent-tools/debug',
  needs: ['cwd', 'conversationId', 'debugSupervisor'],
  create: (resources, run) => {
    // Bugs in the adapters' event handlers and the sessions' timers, outside any call, go to the run's onError.
    const stop = run ? resources.debugSupervisor.onBackgroundError(run.reportError) : () => undefined;
    return { tools: [debugTool(resources.debugSupervisor, { cwd: resources.cwd, conversationId: resources.conversationId })], dispose: stop };
  },
});
