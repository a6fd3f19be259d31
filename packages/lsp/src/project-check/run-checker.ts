import { type ChildProcess, spawn } from 'node:child_process';
import type { CheckerOutput, CheckerRun } from './checker.js';

const MAX_OUTPUT = 16 * 1024 * 1024;

/** The outcome of running a checker process. */
export type RunOutcome =
  | { readonly ok: true; readonly output: CheckerOutput; readonly truncated: boolean }
  | { readonly ok: false; readonly reason: string };

/**
 * Runs a checker in its own process group with a timeout, keeping at most 16 MiB of each output stream.
 * A timeout or cancel kills the whole group.
 */
export function runChecker(run: CheckerRun, root: string, timeoutMs: number, env: NodeJS.ProcessEnv, signal?: AbortSignal): Promise<RunOutcome> {
  return new Promise<RunOutcome>((resolve) => {
    let child: ChildProcess;
    try {
      child = spawn(run.command.command, [...run.command.prefixArgs, ...run.args], {
        cwd: run.cwd ?? root,
        env: { ...env, ...run.env },
        stdio: ['ignore', 'pipe', 'pipe'],
        detached: true,
      });
    } catch (error) {
      resolve({ ok: false, reason: `${run.title} could not be started: ${(error as Error).message}` });
      return;
    }
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    let outSize = 0;
    let errSize = 0;
    let truncated = false;
    child.stdout?.on('data', (chunk: Buffer) => {
      if (outSize < MAX_OUTPUT) out.push(chunk);
      else truncated = true;
      outSize += chunk.length;
    });
    child.stderr?.on('data', (chunk: Buffer) => {
      if (errSize < MAX_OUTPUT) err.push(chunk);
      else truncated = true;
      errSize += chunk.length;
    });
    let settled = false;
    const finish = (outcome: RunOutcome): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
      resolve(outcome);
    };
    const kill = (): void => {
      try {
        if (child.pid) process.kill(-child.pid, 'SIGKILL');
      } catch {
        child.kill('SIGKILL');
      }
    };
    const timer = setTimeout(() => {
      kill();
      finish({ ok: false, reason: `${run.title} did not finish within ${Math.round(timeoutMs / 100) / 10} s and was stopped` });
    }, timeoutMs);
    const onAbort = (): void => {
      kill();
      finish({ ok: false, reason: `${run.title} was cancelled` });
    };
    signal?.addEventListener('abort', onAbort, { once: true });
    child.once('error', (error) => finish({ ok: false, reason: `${run.title} could not be started: ${error.message}` }));
    const done = (code: number | null): void => {
      // Helpers the checker left behind in its group go with it.
      kill();
      finish({
        ok: true,
        truncated,
        output: { stdout: Buffer.concat(out).toString('utf8'), stderr: Buffer.concat(err).toString('utf8'), code },
      });
    };
    child.once('close', (code) => done(code));
    // A helper that inherited the pipes would keep 'close' from firing; the exit of the checker is enough.
    child.once('exit', (code) => setTimeout(() => done(code), 2000).unref());
  });
}
