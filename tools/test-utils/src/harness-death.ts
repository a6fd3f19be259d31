import { existsSync } from 'node:fs';
import type { ContractCall } from './contract-checks.js';
import { endHarness, type HarnessDeath } from './harness-process.js';
import type { ProcessInfo } from './processes.js';

/** What became of the processes the factory contract's stand-in harness started. */
export interface HarnessDeathOutcome {
  /** The harness's answer to its call. */
  readonly answer: { readonly isError: boolean; readonly text: string };
  /** How many processes the call had started (besides the harness) before it died. */
  readonly started: number;
  /** Processes still alive after the budget, found through /proc by the harness's environment marker. */
  readonly survivors: readonly ProcessInfo[];
}

/** How long after the harness is ready its call may take to start its first process. */
const STARTED_WAIT_MS = 10_000;

/**
 * The factory contract's harness-death check: runs a package's harness module in the contract's stand-in
 * (contract-harness.ts), lets its call start whatever it starts, and ends it without disposing through
 * {@link endHarness}.
 */
export async function harnessDeath(options: {
  readonly module: string | URL;
  readonly dir: string;
  readonly call: ContractCall;
  readonly death: HarnessDeath;
  readonly budgetMs: number;
}): Promise<HarnessDeathOutcome> {
  const moduleUrl = typeof options.module === 'string' ? options.module : options.module.href;
  const args = [moduleUrl, options.dir, options.call.tool, JSON.stringify(options.call.args)];
  // A call may start its processes after it answers (a background worker does), and a keeper is forked by a zygote
  // that carries no marker: wait a while for the first marked process, then end the harness anyway so the caller's
  // own check reports a call that started nothing.
  const waitUntil = Date.now() + STARTED_WAIT_MS;
  const started = (running: readonly ProcessInfo[]): boolean => running.length > 0 || Date.now() > waitUntil;
  const outcome = await endHarness({ script: driverPath(), args, death: options.death, budgetMs: options.budgetMs, started });
  const answer = JSON.parse(outcome.output.split('\n')[0] ?? '{}') as HarnessDeathOutcome['answer'];
  return { answer, started: outcome.seen.length, survivors: outcome.survivors };
}

/** The compiled driver beside this file, or in dist/ when this file runs from src/ (the package's own tests). */
function driverPath(): string {
  const beside = new URL('./contract-harness.js', import.meta.url).pathname;
  return existsSync(beside) ? beside : new URL('../dist/contract-harness.js', import.meta.url).pathname;
}
