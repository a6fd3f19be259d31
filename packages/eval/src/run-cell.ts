import type { ToolCaller, ToolProgress } from '@agent-tools/core';
import { BridgeHost } from './bridge-host.js';
import { CellCeiling } from './cell-ceiling.js';
import { CellProgress } from './cell-progress.js';
import { EvalToolError } from './errors.js';
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
  /** The hard ceiling: how long the cell may run in all, bridged calls not counted (default: no ceiling). */
  readonly ceilingMs?: number;
  /** Where `tool(...)` calls go: the registry, through the eval call's context. */
  readonly caller: ToolCaller;
  /** Told of a bug while answering the cell's bridged calls (the eval tool passes `ctx.reportError`). */
  readonly onBug?: (error: unknown) => void;
  /** Cancels the cell (the call was cancelled, or the run ended). */
  readonly signal: AbortSignal;
  /** How long an interrupted cell may take to stop before its kernel is given up (default 10 s). */
  readonly interruptGraceMs?: number;
  /** Hears how long the cell has run and the tail of what it printed, while it runs. */
  readonly onProgress?: (progress: ToolProgress) => void;
}

/** Why a cell was stopped from outside: its idle budget, its ceiling, or a cancelled call. */
export type StopReason = 'timeout' | 'ceiling' | 'cancelled';

/** What happened while a cell ran. */
export interface CellRun {
  readonly outputs: readonly CellOutput[];
  readonly ended: CellEnd;
  /** Which budget stopped the cell, when one did. */
  readonly stoppedBy?: StopReason;
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
 * Runs a cell under its idle budget and its hard ceiling, answering the kernel's stdin requests: bridge requests
 * go to the registry (both clocks paused meanwhile), a plain `input()` gets an empty line. When a budget runs out or
 * the call is cancelled, the kernel is interrupted, not killed: its state survives. A kernel that ignores the
 * interrupt is given up after a grace period.
 */
export async function runCell(options: RunCellOptions): Promise<CellRun> {
  const { session, code, signal } = options;
  const log = new OutputLog();
  let stop: (why: StopReason) => void = () => undefined;
  const stopped = new Promise<StopReason>((resolve) => {
    stop = resolve;
  });
  using budget = new IdleBudget(options.idleMs, () => stop('timeout'));
  using ceiling = new CellCeiling(options.ceilingMs ?? Number.POSITIVE_INFINITY, () => stop('ceiling'));
  using progress = new CellProgress(options.onProgress, session.language === 'python' ? 'Python' : 'JavaScript', options.onBug);
  const onAbort = (): void => stop('cancelled');
  signal.addEventListener('abort', onAbort, { once: true });
  if (signal.aborted) stop('cancelled');

  const clocks = {
    pause: () => {
      budget.pause();
      ceiling.pause();
    },
    resume: () => {
      budget.resume();
      ceiling.resume();
    },
  };
  const bridge = new BridgeHost(options.caller, signal, clocks, options.onBug);
  const execution = session.execute(code, {
    onOutput: (output) => {
      log.push(output);
      budget.touch();
      if (output.type === 'stream') progress.output(output.text);
    },
    onInput: (prompt) => bridge.answer(prompt),
  });
  // The execution may settle after the race is decided; its rejection is handled below, never left unhandled.
  const settled = execution.then(
    (reply) => ({ reply }) as const,
    (error: unknown) => ({ error }) as const,
  );
  const counts = (): Pick<CellRun, 'bridgeCalls' | 'plainInputs' | 'droppedDisplays'> => ({
    bridgeCalls: bridge.calls,
    plainInputs: bridge.plainInputs,
    droppedDisplays: log.droppedDisplays,
  });

  try {
    const first = await Promise.race([settled, stopped]);
    if (typeof first !== 'string') return finish(first);
    // An interrupt that fails (the kernel or its server is gone; services' plain errors) is answered by the grace below.
    await session.interrupt().catch(() => undefined);
    const grace = new Promise<'stuck'>((resolve) => setTimeout(resolve, options.interruptGraceMs ?? 10_000, 'stuck').unref());
    const after = await Promise.race([settled, grace]);
    if (after === 'stuck') {
      const reason = `the ${session.language} kernel did not stop when interrupted, so it was shut down`;
      session.markDead(reason);
      return { outputs: log.outputs, ended: 'stuck', stoppedBy: first, executionCount: null, deathReason: reason, ...counts() };
    }
    const run = finish(after);
    return run.ended === 'died' ? run : { ...run, ended: first === 'ceiling' ? 'timeout' : first, stoppedBy: first };
  } finally {
    signal.removeEventListener('abort', onAbort);
  }

  function finish(result: { reply: ExecuteReply } | { error: unknown }): CellRun {
    if ('reply' in result) {
      const ended: CellEnd = result.reply.status;
      return { outputs: log.outputs, ended, executionCount: result.reply.executionCount, ...counts() };
    }
    if (result.error instanceof EvalToolError && result.error.code === 'kernel_died') {
      return { outputs: log.outputs, ended: 'died', executionCount: null, deathReason: result.error.detail, ...counts() };
    }
    throw result.error;
  }
}
