import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import type { ContractCall } from './contract-checks.js';
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
  readonly readyTimeoutMs?: number;
}): Promise<HarnessDeathOutcome> {
  const marker = envMarker();
  const driver = driverPath();
  const moduleUrl = typeof options.module === 'string' ? options.module : options.module.href;
  const mode = options.death === 'exit' ? 'exit' : 'wait';
  const child = spawn(process.execPath, [driver, moduleUrl, options.dir, options.call.tool, JSON.stringify(options.call.args), mode], {
    env: marker.env,
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => {
    stderr = (stderr + chunk).slice(-4000);
  });
  try {
    const line = await firstLine(child, options.readyTimeoutMs ?? 60_000, () => stderr);
    const answer = JSON.parse(line) as { isError: boolean; text: string };
    const started = markedProcesses(marker).filter((p) => p.pid !== child.pid).length;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    if (options.death === 'exit') child.stdin?.end('exit\n');
    else child.kill('SIGKILL');
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

function firstLine(child: ReturnType<typeof spawn>, timeoutMs: number, stderr: () => string): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = '';
    const timer = setTimeout(() => reject(new Error(`the stand-in harness printed nothing within ${timeoutMs} ms; stderr: ${stderr()}`)), timeoutMs);
    child.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
      text += chunk;
      const end = text.indexOf('\n');
      if (end >= 0) {
        clearTimeout(timer);
        resolve(text.slice(0, end));
      }
    });
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`the stand-in harness ended (${signal ?? code}) before it answered; stderr: ${stderr()}`));
    });
  });
}
