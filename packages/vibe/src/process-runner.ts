import { capTextTail } from '@agent-tools/core/internal';
import { type SupervisedProcess, spawnSupervised } from '@agent-tools/core/process';
import { type CommandTemplate, ProcessCommands, type ResumeOptions } from './process-commands.js';
import type { WorkerResult, WorkerRunnerSpec, WorkerTier } from './runner.js';
import { SessionScanner } from './session-scanner.js';
import { tiersValue } from './surface-policy.js';

/** How a tier reaches the agent: extra arguments, extra environment. */
export interface TierMapping {
  readonly args?: readonly string[];
  readonly env?: Readonly<Record<string, string>>;
}

/** How {@link processRunner} starts a command-line agent. */
export interface ProcessRunnerOptions {
  /**
   * The command for workers started from a surface that admits write and exec: an argument list, or a command line
   * split like a shell would split plain words (no shell runs). Placeholders `{brief}`, `{tier}`, `{label}`, `{id}`,
   * `{run}`, `{surface}`, `{session}` are replaced inside each argument; an argument that is exactly `{tier_args}`
   * receives the tier's arguments (else they go at the end). Example: `my-agent --model {tier} -p {brief}`.
   */
  readonly command: CommandTemplate;
  /**
   * The command for workers started from a surface that admits less (plan mode, a read-only subagent): the agent's
   * own read-only or plan mode, or a sandbox that makes the working copy read-only. Without it, vibe_spawn and
   * vibe_send are refused on such surfaces. The guarantee is exactly as strong as this command.
   */
  readonly readOnlyCommand?: CommandTemplate;
  /** How vibe_send continues a worker's session (`my-agent --resume {session} -p {brief}`); without it, it restarts. */
  readonly resume?: ResumeOptions;
  /**
   * What the harness's user would configure to allow workers on read-only surfaces, for the refusal the model
   * reads (default: names `readOnlyCommand`).
   */
  readonly readOnlyHint?: string;
  /** How the brief reaches the agent; default `argument` when the template has `{brief}`, else `stdin`. */
  readonly briefVia?: 'stdin' | 'argument';
  /** Per-tier arguments and environment (`{ fast: { args: ['--model', 'small'] } }`). */
  readonly tiers?: Partial<Readonly<Record<WorkerTier, TierMapping>>>;
  /** Extra environment for every worker (on top of this process's environment). */
  readonly env?: Readonly<Record<string, string>>;
  /** The directory workers run in; default the run's working directory, else this process's. */
  readonly cwd?: string;
  /** How long a stopped worker gets between SIGTERM and SIGKILL (default 3 s). */
  readonly killGraceMs?: number;
  /** How much of each output stream is kept, from the end (default 1,000,000 characters). */
  readonly maxOutputChars?: number;
}

/**
 * A runner that starts any command-line agent as a child process: the surface's command (`command`, or
 * `readOnlyCommand` for a surface that does not admit write and exec), the brief on standard input or as an
 * argument, the tier mapped to arguments and environment (`VIBE_TIER`, `VIBE_WORKER_ID`, `VIBE_LABEL`, `VIBE_RUN`,
 * `AGENT_TOOLS_SURFACE`, `AGENT_TOOLS_TIERS` are always set, `VIBE_SESSION` when a session is known), standard output
 * collected as the result. With `resume`, a message continues the worker's session. Each worker runs under core's process supervisor in its own process
 * group; stopping it, and its normal end, end everything it started, also what left the group with `setsid`
 * (SIGTERM, then SIGKILL after the grace period), so nothing it started lingers, even when the harness is killed.
 */
export function processRunner(options: ProcessRunnerOptions): WorkerRunnerSpec {
  const commands = new ProcessCommands(options);
  const graceMs = options.killGraceMs ?? 3000;
  const maxChars = options.maxOutputChars ?? 1_000_000;

  const run: WorkerRunnerSpec['run'] = (task) =>
    new Promise<WorkerResult>((resolve, reject) => {
      const tier = options.tiers?.[task.tier];
      const { program, args, stdin, session } = commands.plan(task, tier?.args ?? []);
      if (session) task.session(session);
      const known = session ?? task.resume?.session;
      const scanner = commands.sessionPattern ? new SessionScanner(commands.sessionPattern, (id) => task.session(id)) : undefined;
      const worker = spawnSupervised({
        command: program,
        args,
        cwd: options.cwd ?? task.cwd ?? process.cwd(),
        env: {
          ...process.env,
          ...options.env,
          ...tier?.env,
          VIBE_TIER: task.tier,
          VIBE_WORKER_ID: task.workerId,
          VIBE_LABEL: task.label,
          VIBE_RUN: String(task.run),
          ...(known ? { VIBE_SESSION: known } : {}),
          AGENT_TOOLS_SURFACE: task.surface.name,
          AGENT_TOOLS_TIERS: tiersValue(task.surface),
        },
        graceMs,
        stderrTail: 0,
      });
      let stdout = '';
      let stderr = '';
      // A bug reading the output (the session pattern, the list's output hook) fails the run, which reports it,
      // instead of throwing out of the stream's data handler, which would end the process.
      const reading = (read: (chunk: string) => void) => (chunk: string) => {
        try {
          read(chunk);
        } catch (error) {
          void worker.stop();
          reject(error);
        }
      };
      worker.stdout?.setEncoding('utf8').on(
        'data',
        reading((chunk) => {
          stdout = keepTail(stdout + chunk, maxChars);
          scanner?.push('stdout', chunk);
          task.output(chunk);
        }),
      );
      worker.stderr?.setEncoding('utf8').on(
        'data',
        reading((chunk) => {
          stderr = keepTail(stderr + chunk, maxChars);
          scanner?.push('stderr', chunk);
        }),
      );
      // An agent that exits without reading its brief closes the pipe; that is its business, not a crash.
      worker.stdin?.end(stdin);

      const onAbort = (): void => void worker.stop();
      void worker.started.then((pid) => {
        if (pid === undefined) return;
        task.started({ pid });
        if (task.signal.aborted) void worker.stop();
        else task.signal.addEventListener('abort', onAbort, { once: true });
      });
      // Its rejection (a stop that failed) fails the run, which reports it, rather than rejecting unhandled.
      worker.exited.then(async ({ code, signal, spawnError }) => {
        task.signal.removeEventListener('abort', onAbort);
        if (spawnError) {
          reject(new Error(`could not start \`${program}\`: ${spawnError}`));
          return;
        }
        // Whatever the agent left running, in its group or escaped from it, goes with it; then the pipes close.
        await worker.stop();
        await streamsClosed(worker, 1000);
        const output = stdout.trim();
        const errText = stderr.trim();
        if (code === 0 && !task.signal.aborted) return resolve({ ok: true, output });
        const detail = task.signal.aborted ? 'stopped' : signal ? `killed by ${signal}` : `exit code ${code}`;
        const withErr = errText ? `${output}${output ? '\n' : ''}stderr:\n${capTextTail(errText, 4000)}` : output;
        resolve({ ok: false, output: withErr, detail });
      }).catch(reject);
    });

  return {
    run,
    canRun: (surface) => commands.canRun(surface),
    canResume: (surface) => commands.canResume(surface),
    ...(options.readOnlyHint ? { readOnlyHint: options.readOnlyHint } : {}),
  };
}

function keepTail(text: string, max: number): string {
  return text.length > max ? text.slice(text.length - max) : text;
}

/** Waits for the output pipes to close (a straggler holding them is gone after the tree was ended). */
function streamsClosed(worker: SupervisedProcess, ms: number): Promise<void> {
  const open = [worker.stdout, worker.stderr].filter((stream) => stream && !stream.closed);
  if (open.length === 0) return Promise.resolve();
  return new Promise((resolve) => {
    let left = open.length;
    const timer = setTimeout(() => {
      for (const stream of open) stream?.destroy();
      resolve();
    }, ms);
    for (const stream of open) {
      stream?.once('close', () => {
        if (--left > 0) return;
        clearTimeout(timer);
        resolve();
      });
    }
  });
}
