/**
 * The end of every stand-in harness script (a Node program a no-orphans test starts, then kills or lets dispose),
 * so each one dies the same ways. A separate entry (`@agent-tools/test-utils/stand-in`): a stand-in must not load
 * vitest.
 */

/**
 * Says `ready` once the stand-in has started what it starts. Then, with `HARNESS_DISPOSE` set, disposes through
 * `dispose` (a harness that cleans up) and says `disposed`; otherwise it waits to be ended: SIGKILL (the OOM killer,
 * a crash), SIGUSR2, on which it exits without disposing (a harness that calls `process.exit`), or the end of its
 * stdin (the test that started it is gone).
 */
export async function standIn(dispose: () => unknown): Promise<void> {
  process.once('SIGUSR2', () => process.exit(0));
  console.log('ready');
  if (process.env['HARNESS_DISPOSE']) {
    await dispose();
    console.log('disposed');
    return;
  }
  process.stdin.on('end', () => process.exit(0)).resume();
}
