import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';

/** How a server process ended. */
export interface ExitInfo {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  /** Set when the process could not be spawned at all (ENOENT, EACCES). */
  readonly spawnError?: string;
}

/** What to start. */
export interface SpawnSpec {
  readonly command: string;
  readonly args: readonly string[];
  readonly cwd: string;
  readonly env?: NodeJS.ProcessEnv;
}

const STDERR_TAIL = 8 * 1024;
const live = new Set<ServerProcess>();
let exitHookInstalled = false;

/**
 * A server child process in its own process group, so that killing it also kills what it started (tsserver
 * under typescript-language-server). Its stderr is drained continuously (a full pipe would block the server)
 * and only a bounded tail is kept for error messages.
 */
export class ServerProcess {
  readonly child: ChildProcessWithoutNullStreams;
  readonly exited: Promise<ExitInfo>;
  #stderr = '';
  #exit: ExitInfo | undefined;

  constructor(spec: SpawnSpec) {
    installExitHook();
    this.child = spawn(spec.command, [...spec.args], {
      cwd: spec.cwd,
      env: spec.env ?? process.env,
      stdio: ['pipe', 'pipe', 'pipe'],
      detached: true,
      windowsHide: true,
    });
    live.add(this);
    this.child.stderr.setEncoding('utf8');
    this.child.stderr.on('data', (text: string) => {
      this.#stderr = (this.#stderr + text).slice(-STDERR_TAIL);
    });
    this.child.stdin.on('error', () => {});
    this.exited = new Promise<ExitInfo>((resolve) => {
      const finish = (info: ExitInfo): void => {
        if (this.#exit) return;
        this.#exit = info;
        live.delete(this);
        // The group may outlive its leader (a tsserver child); it goes with it.
        killGroup(this.child.pid, 'SIGKILL');
        resolve(info);
      };
      this.child.once('error', (error) => finish({ code: null, signal: null, spawnError: error.message }));
      this.child.once('exit', (code, signal) => {
        // stderr may still hold the last words of a crash; give it a moment to drain.
        const drained = new Promise<void>((done) => {
          if (this.child.stderr.readableEnded) return done();
          this.child.stderr.once('end', () => done());
          setTimeout(done, 50).unref();
        });
        void drained.then(() => finish({ code, signal }));
      });
    });
  }

  /** The process id, when the spawn succeeded. */
  get pid(): number | undefined {
    return this.child.pid;
  }

  /** How it ended, once it has. */
  get exit(): ExitInfo | undefined {
    return this.#exit;
  }

  /** The last few kilobytes of stderr, trimmed. */
  get stderrTail(): string {
    return this.#stderr.trim();
  }

  /** Sends a signal to the whole process group. */
  signal(signal: NodeJS.Signals): void {
    if (this.#exit) return;
    killGroup(this.child.pid, signal);
  }

  /** Waits for the exit at most `ms`; returns whether it happened. */
  async waitForExit(ms: number): Promise<boolean> {
    if (this.#exit) return true;
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<false>((resolve) => {
      timer = setTimeout(resolve, ms, false);
    });
    try {
      return await Promise.race([this.exited.then(() => true as const), timeout]);
    } finally {
      clearTimeout(timer);
    }
  }

  /** SIGTERM, then SIGKILL after `graceMs`; resolves when the process is gone. */
  async kill(graceMs = 500): Promise<void> {
    if (this.#exit) return;
    this.signal('SIGTERM');
    if (await this.waitForExit(graceMs)) return;
    this.signal('SIGKILL');
    await this.waitForExit(5000);
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

function killGroup(pid: number | undefined, signal: NodeJS.Signals): void {
  if (!pid) return;
  try {
    process.kill(-pid, signal);
  } catch {
    try {
      process.kill(pid, signal);
    } catch {
      // Already gone.
    }
  }
}

/**
 * Servers run in their own process groups, so they would survive the harness. When the harness exits without
 * disposing (an uncaught error, process.exit), the groups are killed on the way out.
 */
function installExitHook(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.on('exit', () => {
    for (const server of live) killGroup(server.pid, 'SIGKILL');
  });
}
