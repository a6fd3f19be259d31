import { randomBytes } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { formatLimit } from '@agent-tools/core/internal';
import { type SupervisedProcess, spawnSupervised } from '@agent-tools/core/process';
import { EvalToolError } from '../errors.js';
import type { JupyterEndpoint } from './endpoint.js';
import { installKernelSpecs } from './kernel-specs.js';
import { launcherScript } from './launcher-script.js';

/** How the local Jupyter server is started. */
export interface LocalServerOptions {
  /** The interpreter with jupyter_server and ipykernel (default `/usr/bin/python3`). */
  readonly python: string;
  /** The server's root directory: kernels start here. */
  readonly cwd: string;
  /** A private directory for the server's runtime, config and kernel specs; it appears in every command line. */
  readonly stateDir: string;
  /** How long the server may take to listen. */
  readonly startTimeoutMs: number;
  /** Extra environment of the kernels. */
  readonly kernelEnv?: Readonly<Record<string, string>>;
}

const STDERR_KEEP = 8192;

/**
 * A Jupyter server on loopback with a random token, owned by one run: started once, stopped on {@link stop}.
 * The token travels in the environment, not the command line, so other users of the machine cannot read it.
 * It runs under core's process supervisor: the server, its kernels and whatever their cells started (a
 * `!sleep 600 &`, a daemon that called `setsid`) end when it is stopped, and when the harness dies without
 * disposing.
 */
export class LocalJupyterServer {
  readonly #options: LocalServerOptions;
  readonly #token = randomBytes(24).toString('hex');
  #tree: SupervisedProcess | undefined;
  #started: Promise<JupyterEndpoint> | undefined;
  #exited: Promise<void> | undefined;
  #exitListeners = new Set<(reason: string) => void>();
  /** The server's one end once begun (a stop, or a start that failed): later stops share it. */
  #stopped: Promise<void> | undefined;

  constructor(options: LocalServerOptions) {
    this.#options = options;
  }

  /** The server's process id once started. */
  get pid(): number | undefined {
    return this.#tree?.pid;
  }

  /** Starts the server once; later calls share the first start. */
  start(): Promise<JupyterEndpoint> {
    this.#started ??= this.#start();
    return this.#started;
  }

  /** Calls `listener` when the server exits without being stopped. */
  onExit(listener: (reason: string) => void): () => void {
    this.#exitListeners.add(listener);
    return () => this.#exitListeners.delete(listener);
  }

  async #start(): Promise<JupyterEndpoint> {
    const { python, cwd, stateDir, startTimeoutMs } = this.#options;
    const dirs = { runtime: join(stateDir, 'runtime'), config: join(stateDir, 'config'), data: join(stateDir, 'data') };
    for (const dir of Object.values(dirs)) mkdirSync(dir, { recursive: true });
    installKernelSpecs(dirs.data, {
      python,
      env: { AGENT_TOOLS_EVAL_USERBASE: join(stateDir, 'python-user'), ...this.#options.kernelEnv },
    });
    const args = [
      '-c',
      launcherScript(),
      stateDir,
      '--ServerApp.ip=127.0.0.1',
      '--ServerApp.port=0',
      '--ServerApp.port_retries=0',
      '--ServerApp.open_browser=False',
      `--ServerApp.root_dir=${cwd}`,
      '--ServerApp.log_level=WARN',
      // Notice a dead kernel within half a second instead of three, and report it dead instead of restarting
      // it: eval replaces a dead kernel itself and says the state was lost.
      '--KernelRestarter.time_to_dead=0.5',
      '--KernelRestarter.restart_limit=0',
      // No IOPub rate limit: the server would replace a fast cell's output with its warning; eval bounds what it
      // keeps itself, and says how much it dropped.
      '--ServerApp.limit_rate=False',
      ...(process.getuid?.() === 0 ? ['--allow-root'] : []),
    ];
    const tree = spawnSupervised({
      command: python,
      args,
      cwd,
      env: {
        ...process.env,
        JUPYTER_TOKEN: this.#token,
        JUPYTER_RUNTIME_DIR: dirs.runtime,
        JUPYTER_CONFIG_DIR: dirs.config,
        JUPYTER_DATA_DIR: dirs.data,
        PYDEVD_DISABLE_FILE_VALIDATION: '1',
      },
      stderrTail: STDERR_KEEP,
      graceMs: 1000,
    });
    this.#tree = tree;
    this.#exited = tree.exited.then(({ code, signal }) => {
      if (this.#stopped) return;
      const reason = `the local Jupyter server exited (${signal ?? `code ${code}`})`;
      for (const listener of this.#exitListeners) listener(reason);
    });

    const port = await new Promise<number>((resolve, reject) => {
      let stdout = '';
      const fail = (why: string): void => {
        clearTimeout(timer);
        reject(
          new EvalToolError(
            'server_start_failed',
            `Could not start a local Jupyter server with ${python}: ${why}${this.#stderrTail()} ` +
              'It needs jupyter_server and ipykernel for that interpreter (Debian: apt install jupyter-server python3-ipykernel).',
          ),
        );
      };
      const timer = setTimeout(() => fail(`it did not listen within ${formatLimit(startTimeoutMs)}.`), startTimeoutMs);
      void tree.exited.then(({ code, signal, spawnError }) =>
        fail(spawnError ?? `it exited (${signal ?? `code ${code}`}) before listening.`),
      );
      tree.stdout?.setEncoding('utf8');
      tree.stdout?.on('data', (chunk: string) => {
        stdout += chunk;
        const line = stdout.split('\n').find((l) => l.includes('"agent_tools_ready"'));
        if (!line) return;
        clearTimeout(timer);
        try {
          resolve((JSON.parse(line) as { port: number }).port);
        } catch (error) {
          reject(error);
        }
      });
    }).catch(async (error: unknown) => {
      await this.stop();
      throw error;
    });
    tree.stdout?.removeAllListeners('data');
    tree.stdout?.resume();
    return { baseUrl: `http://127.0.0.1:${port}/`, token: this.#token };
  }

  #stderrTail(): string {
    const lines = (this.#tree?.stderrTail ?? '')
      .split('\n')
      .filter((line) => line.trim() && !/^\[[IWD] /.test(line))
      .slice(-6);
    return lines.length ? `\n${lines.join('\n')}\n` : '';
  }

  /**
   * Stops the server: closing its stdin makes it shut its kernels down and exit; a server that has not exited
   * after `graceMs` is ended with everything it started. Resolves when the server, its kernels and whatever
   * their cells left running are gone.
   */
  stop(graceMs = 5000): Promise<void> {
    const tree = this.#tree;
    if (!tree) return Promise.resolve();
    this.#stopped ??= (async () => {
      if (!tree.exit) {
        tree.stdin?.end();
        let timer: NodeJS.Timeout | undefined;
        await Promise.race([tree.exited, new Promise((resolve) => (timer = setTimeout(resolve, graceMs)))]);
        clearTimeout(timer);
      }
      await tree.stop(500);
      await this.#exited;
    })();
    return this.#stopped;
  }
}
