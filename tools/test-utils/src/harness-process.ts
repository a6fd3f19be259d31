import { type ChildProcess, spawn } from 'node:child_process';
import { envMarker, markedProcesses, type ProcessInfo, waitForNoMarked } from './processes.js';
import { waitUntil } from './wait-until.js';

/** A stand-in harness: a Node script run as its own process, so a test can kill it the way a harness dies. */
export interface HarnessProcess {
  readonly child: ChildProcess;
  /** Resolves once the script has printed `line` as a whole line; rejects if it exits first. */
  said(line: string): Promise<void>;
  /** Everything it printed so far. */
  readonly output: string;
}

const started = new Set<ChildProcess>();
let hooked = false;

/**
 * Runs `script` (a `.mjs` file) with `node`, its stdout captured, its stderr passed through. Its stdin is a pipe
 * from this process: a stand-in should exit when it closes. Whatever a test does, one still running when the test
 * process exits is killed then.
 */
export function startHarnessProcess(script: string, args: readonly string[], env: NodeJS.ProcessEnv): HarnessProcess {
  const child = spawn(process.execPath, [script, ...args], { env, stdio: ['pipe', 'pipe', 'inherit'] });
  if (!hooked) {
    hooked = true;
    process.once('exit', () => {
      for (const running of started) running.kill('SIGKILL');
    });
  }
  started.add(child);
  child.once('exit', () => started.delete(child));
  let output = '';
  const listeners = new Set<() => void>();
  child.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
    output += chunk;
    for (const listener of [...listeners]) listener();
  });
  return {
    child,
    get output() {
      return output;
    },
    said: (line) =>
      new Promise<void>((resolve, reject) => {
        const check = (): void => {
          if (!output.split('\n').includes(line)) return;
          listeners.delete(check);
          resolve();
        };
        listeners.add(check);
        child.once('exit', (code, signal) => reject(new Error(`the harness ended (${signal ?? code}) before saying "${line}":\n${output}`)));
        check();
      }),
  };
}

/** How a stand-in harness ends without disposing: `process.exit` (SIGUSR2, see `standIn`), or SIGKILL. */
export type HarnessDeath = 'exit' | 'sigkill';

/** What a stand-in harness had started, and what of it outlived the harness. */
export interface HarnessOutcome {
  /** Everything the harness printed. */
  readonly output: string;
  /** The processes carrying its marker just before it was ended (the harness itself excluded). */
  readonly seen: readonly ProcessInfo[];
  /** Those still alive after the budget, found through /proc by the marker (killed afterwards). */
  readonly survivors: readonly ProcessInfo[];
}

/**
 * The proof that a run leaves nothing when its harness dies without disposing: starts `script` with a fresh
 * environment marker, waits for it to print `ready` and for `started` to hold of the marked processes, ends it
 * (`death`; also when anything before failed), and returns what still carries the marker `budgetMs` after it is
 * gone. Survivors are SIGKILLed afterwards, so a failing check leaks nothing into the next test.
 */
export async function endHarness(options: {
  readonly script: string;
  readonly args: readonly string[];
  readonly death: HarnessDeath;
  readonly started?: (running: readonly ProcessInfo[]) => boolean;
  readonly budgetMs?: number;
}): Promise<HarnessOutcome> {
  const marker = envMarker();
  const harness = startHarnessProcess(options.script, options.args, marker.env);
  const { child } = harness;
  const others = (): ProcessInfo[] => markedProcesses(marker).filter((p) => p.pid !== child.pid);
  const started = options.started ?? (() => true);
  let seen: ProcessInfo[] = [];
  try {
    await harness.said('ready');
    await waitUntil(() => {
      seen = others();
      return started(seen);
    }, 30_000);
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill(options.death === 'exit' ? 'SIGUSR2' : 'SIGKILL');
    await exited;
    const survivors = await waitForNoMarked(marker, options.budgetMs ?? 5000);
    return { output: harness.output, seen, survivors };
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

/** {@link endHarness} with SIGKILL: the harness is killed as the OOM killer or a crash would. */
export function killHarness(
  script: string,
  args: readonly string[],
  started?: (running: readonly ProcessInfo[]) => boolean,
  budgetMs?: number,
): Promise<HarnessOutcome> {
  return endHarness({ script, args, death: 'sigkill', ...(started ? { started } : {}), ...(budgetMs ? { budgetMs } : {}) });
}

/**
 * The same proof for a harness that disposes: runs `script` with `HARNESS_DISPOSE=1` until it prints `disposed`,
 * and returns the marked processes still alive at that moment besides the harness.
 */
export async function disposeHarness(script: string, args: readonly string[]): Promise<readonly ProcessInfo[]> {
  const marker = envMarker();
  const harness = startHarnessProcess(script, args, { ...marker.env, HARNESS_DISPOSE: '1' });
  try {
    await harness.said('disposed');
    return markedProcesses(marker).filter((p) => p.pid !== harness.child.pid);
  } finally {
    harness.child.kill('SIGKILL');
  }
}
