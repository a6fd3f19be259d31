/** Shared test fixtures of the agent-tools monorepo (private). */
export type { ContractCall } from './contract-checks.js';
export { type FactoryContractOptions, factoryContract, HARNESS_DEATH_BUDGET_MS } from './factory-contract.js';
export { type HarnessDeathOutcome, harnessDeath } from './harness-death.js';
export {
  disposeHarness,
  endHarness,
  type HarnessDeath,
  type HarnessOutcome,
  type HarnessProcess,
  killHarness,
  startHarnessProcess,
} from './harness-process.js';
export {
  descendantsOf,
  type EnvMarker,
  envMarker,
  isKeeper,
  listProcesses,
  markedProcesses,
  type ProcessInfo,
  processesMatching,
  waitForNoMarked,
  waitForNoProcesses,
} from './processes.js';
export { seededRandom } from './seeded-random.js';
export { checkStrictSchema } from './strict-rules.js';
export { type TempDir, tempDir } from './temp-dir.js';
export { type UnhandledRejections, unhandledRejections } from './unhandled-rejections.js';
export { alive, waitDead } from './wait.js';
export { waitUntil } from './wait-until.js';
