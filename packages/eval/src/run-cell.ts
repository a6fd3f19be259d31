import { isAgentToolsError, type ToolCaller } from '@agent-tools/core';
import { parseBridgePrompt, runBridgeRequest } from './bridge.js';
import { IdleBudget } from './idle-budget.js';
import type { CellOutput, ExecuteReply, KernelSession } from './jupyter/kernel-session.js';
import { OutputLog } from './output-log.js';
import type { CellEnd } from './render/cell-result.js';

/** How one cell is run. */
export interface RunCellOptions {
  readonly session: KernelSession;
  readonly code: string;
  /** The idle budget: how long the cell may go without output or a bridged call before it is interrupted. */
  readonly idleMs: number;
  /** Where `tool(...)` calls go: the registry, through the eval call's context. */
  readonly caller: ToolCaller;
  /** Cancels the cell (the call was cancelled, or the run ended). */
  readonly signal: AbortSignal;
  /** How long an interrupted cell may take to stop before its kernel is given up (default 10 s). */
  readonly interruptGraceMs?: number;
}

/** What happened while a cell ran. */
export interface CellRun {
  readonly outputs: readonly CellOutput[];
  readonly ended: CellEnd;
  readonly executionCount: number | null;
  /** Why the kernel is gone, when it died or had to be given up. */
  readonly deathReason?: string;
  readonly bridgeCalls: number;
  /** How many times the cell asked for input() that nobody could type. */
  readonly plainInputs: number;
  /** display() outputs beyond what is kept. */
  readonly droppedDisplays: number;
}

/**
 * Runs a cell under its idle budget, answering the kernel's stdin requests: bridge requests go to the registry
 * (the budget is paused meanwhile), a plain `input()` gets an empty line. When the budget runs out or the call is
 * cancelled, the kernel is interrupted, not killed: its state survives. A kernel that ignores the interrupt is
 * given up after a grace period.
 */
export async function runCell(options: RunCellOptions): Promise<CellRun> {
  const { session, code, signal } = options;
  const log = new OutputLog();
  const outputs = log.outputs;
  let bridgeCalls = 0;
  let plainInputs = 0;
  let stop: (why: 'timeout' | 'cancelled') => void = () => undefined;
  const stopped = new Promise<'timeout' | 'cancelled'>((resolve) => {
    stop = resolve;
  });
  using budget = new IdleBudget(options.idleMs, () => stop('timeout'));
  const onAbort = (): void => stop('cancelled');
  signal.addEventListener('abort', onAbort, { once: true });
  if (signal.aborted) stop('cancelled');

  const execution = session.execute(code, {
    onOutput: (output) => {
      log.push(output);
      budget.touch();
    },
    onInput: async (prompt) => {
      const request = parseBridgePrompt(prompt);
      if (!request) {
        plainInputs++;
        return '';
      }
      if ('malformed' in request) return JSON.stringify({ error: `The tool bridge got a malformed request: ${request.malformed}` });
      budget.pause();
      try {
        bridgeCalls += request.calls.length;
        return JSON.stringify(await runBridgeRequest(request, options.caller, signal));
      } catch (error) {
        return JSON.stringify({ error: error instanceof Error ? error.message : String(error) });
      } finally {
        budget.resume();
      }
    },
  });
  // The execution may settle after the race is decided; its rejection is handled below, never left unhandled.
  const settled = execution.then(
    (reply) => ({ reply }) as const,
    (error: unknown) => ({ error }) as const,
  );

  try {
    const first = await Promise.race([settled, stopped]);
    if (typeof first !== 'string') return finish(first);
    await session.interrupt().catch(() => undefined);
    const grace = new Promise<'stuck'>((resolve) => setTimeout(resolve, options.interruptGraceMs ?? 10_000, 'stuck').unref());
    const after = await Promise.race([settled, grace]);
    if (after === 'stuck') {
      const reason = `the ${session.language} kernel did not stop when interrupted, so it was shut down`;
      session.markDead(reason);
      return { outputs, ended: 'stuck', executionCount: null, deathReason: reason, bridgeCalls, plainInputs, droppedDisplays: log.droppedDisplays };
    }
    const run = finish(after);
    return run.ended === 'died' ? run : { ...run, ended: first };
  } finally {
    signal.removeEventListener('abort', onAbort);
  }

  function finish(result: { reply: ExecuteReply } | { error: unknown }): CellRun {
    if ('reply' in result) {
      const ended: CellEnd = result.reply.status === 'ok' ? 'ok' : 'error';
      return { outputs, ended, executionCount: result.reply.executionCount, bridgeCalls, plainInputs, droppedDisplays: log.droppedDisplays };
    }
    if (isAgentToolsError(result.error, 'eval', 'kernel_died')) {
      return {
        outputs,
        ended: 'died',
        executionCount: null,
        deathReason: result.error.detail,
        bridgeCalls,
        plainInputs,
        droppedDisplays: log.droppedDisplays,
      };
    }
    throw result.error;
  }
}
