/**
 * @agent-tools/core/process: the one process supervisor of agent-tools (Node only, so the core entry stays free
 * of `child_process`). Start a command in its own process group with a bounded stderr tail, end it with SIGTERM,
 * a grace period and SIGKILL, track every descendant (also those that leave the group or are re-parented), and
 * end every tree a run started even when the harness dies without disposing. Also the `Content-Length` framing
 * that LSP and DAP share. What is guaranteed where: see the package README.
 */
export {
  type ContentLengthLimits,
  ContentLengthReader,
  type ContentLengthSink,
  encodeContentLength,
  type MalformedKind,
} from './process/content-length.js';
export { type KeeperStatus, keeperStatus } from './process/keeper.js';
export { KEEPER_PATH } from './process/keeper-script.js';
export { type PendingOutcome, type PendingRequestOptions, PendingRequests } from './process/pending-requests.js';
export {
  descendantsOf,
  hasProcFs,
  isLive,
  isStillRunning,
  listProcesses,
  type ProcessEntry,
  readProcess,
} from './process/proc-table.js';
export { type ProcessExit, type SpawnOptions, SupervisedProcess, spawnSupervised } from './process/supervised-process.js';
export { TrackedProcesses } from './process/tracked-processes.js';
