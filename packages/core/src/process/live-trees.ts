/** Something the exit hook must end synchronously when the harness exits without disposing it. */
export interface ExitKillable {
  /** Sends SIGKILL to every process of the tree it can see, without waiting. */
  killNow(): void;
  /**
   * Whether a keeper ends this tree when the harness dies of a signal (its socket closes). Trees without one are
   * ended by the signal hook, or by nothing.
   */
  readonly kept: boolean;
}

/** The signals that end a Node process that does not listen for them, without running its exit hook. */
const FATAL_SIGNALS = process.platform === 'win32' ? [] : (['SIGINT', 'SIGTERM', 'SIGHUP'] as const);

const live = new Set<ExitKillable>();
let exitHooked = false;
let signalsHooked = false;

/**
 * Registers a live process tree with the one exit hook of this harness process. When the harness exits without
 * disposing (an uncaught error, `process.exit`), every registered tree is killed on the way out. A harness that
 * dies of SIGINT, SIGTERM or SIGHUP runs no exit hook: a tree without a keeper is then ended by a signal hook
 * that acts only when the harness has no listener of its own for that signal (it would die of it), and then
 * lets it die of it. What no hook can reach (SIGKILL) is the keeper's job.
 */
export function registerLive(tree: ExitKillable): void {
  if (!exitHooked) {
    exitHooked = true;
    process.on('exit', () => killAllNow(() => true));
  }
  live.add(tree);
  if (!tree.kept && !signalsHooked) {
    signalsHooked = true;
    for (const signal of FATAL_SIGNALS) process.on(signal, onFatalSignal);
  }
}

/** Removes a tree that has ended. */
export function unregisterLive(tree: ExitKillable): void {
  live.delete(tree);
  if (signalsHooked && ![...live].some((other) => !other.kept)) {
    signalsHooked = false;
    for (const signal of FATAL_SIGNALS) process.off(signal, onFatalSignal);
  }
}

/** How many trees are live (for tests). */
export function liveTreeCount(): number {
  return live.size;
}

/**
 * How many of the signal's listeners belong to signal-exit (loaded by ink, execa and many CLIs): like this hook, it
 * acts only when nothing else listens, and counts its listeners on a global for the same reason (version 4 on
 * `Symbol.for('signal-exit emitter')`, version 3 on `process.__signal_exit_emitter__`). Without this, each would
 * wait for the other and the harness would survive the signal.
 */
function signalExitListeners(): number {
  const count = (emitter: { count?: unknown } | undefined): number => (typeof emitter?.count === 'number' ? emitter.count : 0);
  const v4 = (globalThis as Record<symbol, { count?: unknown } | undefined>)[Symbol.for('signal-exit emitter')];
  const v3 = (process as { __signal_exit_emitter__?: { count?: unknown } }).__signal_exit_emitter__;
  return count(v4) + count(v3);
}

function onFatalSignal(signal: NodeJS.Signals): void {
  // The harness listens itself: it decides whether to exit (and its exit runs the exit hook).
  if (process.listenerCount(signal) - 1 - signalExitListeners() > 0) return;
  killAllNow((tree) => !tree.kept);
  for (const fatal of FATAL_SIGNALS) process.off(fatal, onFatalSignal);
  signalsHooked = false;
  // Die of the signal as the harness would have without this hook.
  process.kill(process.pid, signal);
}

function killAllNow(which: (tree: ExitKillable) => boolean): void {
  for (const tree of live) {
    if (!which(tree)) continue;
    try {
      tree.killNow();
    } catch {
      // One tree that cannot be signalled must not keep the others alive.
    }
    live.delete(tree);
  }
}
