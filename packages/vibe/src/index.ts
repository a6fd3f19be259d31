/**
 * @agent-tools/vibe: background workers: vibe_spawn, vibe_send, vibe_wait, vibe_kill, vibe_list. The harness says
 * what a worker is (a runner); this package owns the lifecycle, and ships a runner for command-line agents.
 */
export { expandTemplate, PLACEHOLDERS, splitCommandLine } from './command-template.js';
export { VibeError, type VibeErrorCode } from './errors.js';
export { vibeTools } from './factory.js';
export { type ProcessRunnerOptions, processRunner, type TierMapping } from './process-runner.js';
export {
  WORKER_TIERS,
  type WorkerResult,
  type WorkerResume,
  type WorkerRun,
  type WorkerRunner,
  type WorkerRunnerSpec,
  type WorkerTask,
  type WorkerTier,
} from './runner.js';
export { vibeKillParameters, vibeKillTool } from './tools/vibe-kill.js';
export { vibeListParameters, vibeListTool } from './tools/vibe-list.js';
export { vibeSendParameters, vibeSendTool } from './tools/vibe-send.js';
export { vibeSpawnParameters, vibeSpawnTool } from './tools/vibe-spawn.js';
export { MAX_WAIT_SECONDS, vibeWaitParameters, vibeWaitTool } from './tools/vibe-wait.js';
export {
  DEFAULT_TIER,
  type SendOptions,
  type SpawnSpec,
  type WorkerEndListener,
  WorkerList,
  type WorkerListOptions,
} from './worker-list.js';
export type { RunStart, WorkerSnapshot, WorkerStatus } from './worker-state.js';
