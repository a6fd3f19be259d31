/**
 * @agent-tools/vibe: background workers: vibe_spawn, vibe_send, vibe_wait, vibe_kill, vibe_list. The harness says
 * what a worker is (a runner); this package owns the lifecycle, and ships a runner for command-line agents.
 */
export { splitCommandLine } from './command-template.js';
export { VibeError, type VibeErrorCode } from './errors.js';
export { vibeTools } from './factory.js';
export { type ProcessRunnerOptions, processRunner, type TierMapping } from './process-runner.js';
export type {
  WorkerResult,
  WorkerResume,
  WorkerRun,
  WorkerRunner,
  WorkerRunnerSpec,
  WorkerTask,
  WorkerTier,
} from './runner.js';
export { vibeKillParameters } from './tools/vibe-kill.js';
export { vibeListParameters } from './tools/vibe-list.js';
export { vibeSendParameters } from './tools/vibe-send.js';
export { vibeSpawnParameters } from './tools/vibe-spawn.js';
export { vibeWaitParameters } from './tools/vibe-wait.js';
export {
  type SendOptions,
  type SpawnSpec,
  type WorkerEndListener,
  WorkerList,
  type WorkerListOptions,
} from './worker-list.js';
export type { RunStart, WorkerSnapshot, WorkerStatus } from './worker-state.js';
