import type { Readable, Writable } from 'node:stream';
import { type ProcessExit, type SupervisedProcess, spawnSupervised } from '@agent-tools/core/process';

/** How a server process ended. */
export type ExitInfo = ProcessExit;

/** What to start. */
export interface SpawnSpec {
  readonly command: string;
  readonly args: readonly string[];
  readonly cwd: string;
  readonly env?: NodeJS.ProcessEnv;
}

const STDERR_TAIL = 8 * 1024;

/**
 * A language server under core's process supervisor: its own process group, every process it starts (tsserver
 * under typescript-language-server) tracked and ended with it, even when the harness is killed. Its stderr is
 * drained continuously and only a bounded tail is kept for error messages.
 */
export class ServerProcess {
  /** The server's stdin and stdout, where the protocol flows. */
  readonly child: { readonly stdin: Writable; readonly stdout: Readable };
  readonly exited: Promise<ExitInfo>;
  readonly #tree: SupervisedProcess;

  constructor(spec: SpawnSpec) {
    this.#tree = spawnSupervised({
      command: spec.command,
      args: spec.args,
      cwd: spec.cwd,
      env: spec.env ?? process.env,
      stderrTail: STDERR_TAIL,
      graceMs: 500,
    });
    this.child = { stdin: this.#tree.stdin as Writable, stdout: this.#tree.stdout as Readable };
    this.exited = this.#tree.exited;
  }

  /** The process id, once the server runs. */
  get pid(): number | undefined {
    return this.#tree.pid;
  }

  /** How it ended, once it has. */
  get exit(): ExitInfo | undefined {
    return this.#tree.exit;
  }

  /** The last few kilobytes of stderr, trimmed. */
  get stderrTail(): string {
    return this.#tree.stderrTail.trim();
  }

  /** Sends a signal to every process of the server's tree. */
  signal(signal: NodeJS.Signals): void {
    if (this.#tree.exit) return;
    this.#tree.signal(signal);
  }

  /**
   * Waits for the exit at most `ms`; returns whether it happened. Once the server has exited, what it left
   * behind is ended before this returns, so a stopped server is wholly gone.
   */
  async waitForExit(ms: number): Promise<boolean> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<false>((resolve) => {
      timer = setTimeout(resolve, ms, false);
    });
    try {
      const exited = this.#tree.exit !== undefined || (await Promise.race([this.exited.then(() => true as const), timeout]));
      if (exited) await this.#tree.stop();
      return exited;
    } finally {
      clearTimeout(timer);
    }
  }

  /** SIGTERM, then SIGKILL after `graceMs`; resolves when the server and everything it started are gone. */
  kill(graceMs = 500): Promise<void> {
    return this.#tree.stop(graceMs);
  }
}

/** Describes an exit for a model: `exit code 1`, `signal SIGKILL`, plus the stderr tail when there is one. */
export function describeExit(info: ExitInfo, stderrTail: string, maxStderr = 600): string {
  const how = info.spawnError
    ? `could not be started (${info.spawnError})`
    : info.signal
      ? `was killed by ${info.signal}`
      : `exited with code ${info.code}`;
  const tail = stderrTail ? `; its last output: ${JSON.stringify(stderrTail.slice(-maxStderr))}` : '';
  return `${how}${tail}`;
}
