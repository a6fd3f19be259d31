import type { Readable } from 'node:stream';
import { formatLimit } from '@agent-tools/core/internal';
import { spawnSupervised } from '@agent-tools/core/process';
import type { CheckerOutput, CheckerRun } from './checker.js';

const MAX_OUTPUT = 16 * 1024 * 1024;
/** How long a helper that inherited the output pipes may keep them open after the checker itself exited. */
const PIPE_GRACE_MS = 2000;

/** The outcome of running a checker process. */
export type RunOutcome =
  | { readonly ok: true; readonly output: CheckerOutput; readonly truncated: boolean }
  | { readonly ok: false; readonly reason: string };

/**
 * Runs a checker under core's process supervisor with a timeout, keeping at most 16 MiB of each output stream.
 * A timeout or cancel ends its whole tree at once, and so does its exit: helpers it left behind go with it.
 */
export async function runChecker(run: CheckerRun, root: string, timeoutMs: number, env: NodeJS.ProcessEnv, signal?: AbortSignal): Promise<RunOutcome> {
  const checker = spawnSupervised({
    command: run.command.command,
    args: [...run.command.prefixArgs, ...run.args],
    cwd: run.cwd ?? root,
    env: { ...env, ...run.env },
    stdin: 'ignore',
    stderrTail: 0,
    graceMs: 0,
  });
  const out = collect(checker.stdout);
  const err = collect(checker.stderr);
  let timer: NodeJS.Timeout | undefined;
  let onAbort: (() => void) | undefined;
  const stopped = new Promise<RunOutcome>((resolve) => {
    timer = setTimeout(() => {
      resolve({ ok: false, reason: `${run.title} did not finish within ${formatLimit(timeoutMs)} and was stopped` });
    }, timeoutMs);
    onAbort = () => resolve({ ok: false, reason: `${run.title} was cancelled` });
    if (signal?.aborted) onAbort();
    else signal?.addEventListener('abort', onAbort, { once: true });
  });
  const finished = checker.exited.then(async ({ code, spawnError }): Promise<RunOutcome> => {
    if (spawnError) return { ok: false, reason: `${run.title} could not be started: ${spawnError}` };
    await checker.stop(0);
    await Promise.all([out.closed(PIPE_GRACE_MS), err.closed(PIPE_GRACE_MS)]);
    return {
      ok: true,
      truncated: out.truncated || err.truncated,
      output: { stdout: out.text(), stderr: err.text(), code },
    };
  });
  try {
    return await Promise.race([finished, stopped]);
  } finally {
    clearTimeout(timer);
    if (onAbort) signal?.removeEventListener('abort', onAbort);
    await checker.stop(0);
  }
}

/** Collects a stream up to {@link MAX_OUTPUT} bytes. */
function collect(stream: Readable | null) {
  const chunks: Buffer[] = [];
  let size = 0;
  let truncated = false;
  stream?.on('data', (chunk: Buffer) => {
    if (size < MAX_OUTPUT) chunks.push(chunk);
    else truncated = true;
    size += chunk.length;
  });
  return {
    get truncated() {
      return truncated;
    },
    text: () => Buffer.concat(chunks).toString('utf8'),
    closed: (ms: number) =>
      new Promise<void>((resolve) => {
        if (!stream || stream.closed) return resolve();
        const timeout = setTimeout(resolve, ms);
        stream.once('close', () => {
          clearTimeout(timeout);
          resolve();
        });
      }),
  };
}
