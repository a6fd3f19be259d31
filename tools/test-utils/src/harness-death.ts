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
  const outcome = await endHarness({ script: driverPath(), args, death: options.death, budgetMs: options.budgetMs });
  const answer = JSON.parse(outcome.output.split('\n')[0] ?? '{}') as HarnessDeathOutcome['answer'];
  return { answer, started: outcome.seen.length, survivors: outcome.survivors };
}

/** The compiled driver beside this file, or in dist/ when this file runs from src/ (the package's own tests). */
function driverPath(): string {
  const beside = new URL('./contract-harness.js', import.meta.url).pathname;
  return existsSync(beside) ? beside : new URL('../dist/contract-harness.js', import.meta.url).pathname;
}
