import { existsSync } from 'node:fs';
import type { ContractCall } from './contract-checks.js';
import { startHarnessProcess } from './harness-process.js';
import { envMarker, markedProcesses, type ProcessInfo, waitForNoMarked } from './processes.js';

/** How a stand-in harness ends without disposing its registry. */
export type HarnessDeath = 'exit' | 'sigkill';

/** What became of the processes a stand-in harness started. */
export interface HarnessDeathOutcome {
  /** The harness's answer to its call. */
  readonly answer: { readonly isError: boolean; readonly text: string };
  /** How many processes the call had started (besides the harness) before it died. */
  readonly started: number;
  /** Processes still alive after the budget, found through /proc by the harness's environment marker. */
  readonly survivors: readonly ProcessInfo[];
}

/**
 * Runs a package's harness module in a child process (see contract-harness.ts), lets its call start whatever it
 * starts, ends the child without disposing (process.exit, or SIGKILL), and waits up to `budgetMs` for every process
 * that inherited its environment marker to end. Survivors are killed afterwards so a failing check leaks nothing.
 */
export async function harnessDeath(options: {
  readonly module: string | URL;
  readonly dir: string;
  readonly call: ContractCall;
  readonly death: HarnessDeath;
  readonly budgetMs: number;
}): Promise<HarnessDeathOutcome> {
  const marker = envMarker();
  const moduleUrl = typeof options.module === 'string' ? options.module : options.module.href;
  const mode = options.death === 'exit' ? 'exit' : 'wait';
  const args = [moduleUrl, options.dir, options.call.tool, JSON.stringify(options.call.args), mode];
  const harness = startHarnessProcess(driverPath(), args, marker.env);
  const { child } = harness;
  try {
    await harness.said('ready');
    const answer = JSON.parse(harness.output.split('\n')[0] ?? '{}') as HarnessDeathOutcome['answer'];
    const started = markedProcesses(marker).filter((p) => p.pid !== child.pid).length;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill(options.death === 'exit' ? 'SIGUSR2' : 'SIGKILL');
    await exited;
    const survivors = await waitForNoMarked(marker, options.budgetMs);
    return { answer, started, survivors };
  } finally {
    child.kill('SIGKILL');
    for (const p of markedProcesses(marker)) {
      try {
        process.kill(p.pid, 'SIGKILL');
      } catch {
        // Already gone.
      }
    }
  }
}

/** The compiled driver beside this file, or in dist/ when this file runs from src/ (the package's own tests). */
function driverPath(): string {
  const beside = new URL('./contract-harness.js', import.meta.url).pathname;
  return existsSync(beside) ? beside : new URL('../dist/contract-harness.js', import.meta.url).pathname;
}
