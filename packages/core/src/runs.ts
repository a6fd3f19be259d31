/**
 * The runs (registries) alive in this process, for what a run keeps between its calls and ends with the last run:
 * the process supervisor's zygote. Free of Node-only imports, so the core entry can count runs without loading
 * the supervisor; the supervisor hears the last run end when it is loaded.
 */
let live = 0;
const lastRunEnded = new Set<() => Promise<void>>();

/** Counts a run as alive; the returned function ends it once (later calls do nothing) and waits for the hooks. */
export function runStarted(): () => Promise<void> {
  live++;
  let ended = false;
  return async () => {
    if (ended) return;
    ended = true;
    live--;
    if (live === 0) await Promise.all([...lastRunEnded].map((hook) => hook()));
  };
}

/** How many runs are alive. */
export function liveRuns(): number {
  return live;
}

/** Runs `hook` (awaited by the run's end) each time the last alive run ends. */
export function onLastRunEnded(hook: () => Promise<void>): void {
  lastRunEnded.add(hook);
}
