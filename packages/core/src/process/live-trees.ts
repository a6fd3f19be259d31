/** Something the exit hook must end synchronously when the harness exits without disposing it. */
export interface ExitKillable {
  /** Sends SIGKILL to every process of the tree it can see, without waiting. */
  killNow(): void;
}

const live = new Set<ExitKillable>();
let hooked = false;

/**
 * Registers a live process tree with the one exit hook of this harness process. When the harness exits without
 * disposing (an uncaught error, `process.exit`), every registered tree is killed on the way out; what an exit
 * hook cannot reach (a SIGKILL of the harness) is the keeper's job.
 */
export function registerLive(tree: ExitKillable): void {
  if (!hooked) {
    hooked = true;
    process.on('exit', killAllNow);
  }
  live.add(tree);
}

/** Removes a tree that has ended. */
export function unregisterLive(tree: ExitKillable): void {
  live.delete(tree);
}

/** How many trees are live (for tests). */
export function liveTreeCount(): number {
  return live.size;
}

function killAllNow(): void {
  for (const tree of live) {
    try {
      tree.killNow();
    } catch {
      // One tree that cannot be signalled must not keep the others alive.
    }
  }
  live.clear();
}
