import { type ChildProcess, spawn } from 'node:child_process';

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

/** Polls `check` until it holds; throws after `ms`. */
export async function waitUntil(check: () => boolean, ms = 10_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`condition not met within ${ms} ms`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}
