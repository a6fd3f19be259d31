import { randomUUID } from 'node:crypto';
import { rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BackgroundErrors, type BackgroundReporter } from '@agent-tools/core/internal';
import type { ServerConnection } from '@jupyterlab/services';
import { EvalToolError } from '../errors.js';
import type { KernelLanguage } from '../language.js';
import { pythonPrelude } from '../python/prelude.js';
import { type JupyterEndpoint, normalizeEndpoint } from './endpoint.js';
import { KernelSession, withTimeout } from './kernel-session.js';
import { KERNEL_SPEC_NAMES } from './kernel-specs.js';
import { LocalJupyterServer } from './local-server.js';
import { loadServices, serverSettings } from './services.js';

/** A Jupyter server a conversation's isolated environment provides, as the harness describes it. */
export interface JupyterEnvironment extends JupyterEndpoint {
  /**
   * Kernel spec names to use there. By default eval's own specs (`agent-tools-python`, `agent-tools-javascript`,
   * see `installKernelSpecs`) when the server has them, else the first spec of the language.
   */
  readonly kernelNames?: Partial<Record<KernelLanguage, string>>;
}

/** How a kernel factory finds or starts its Jupyter servers. */
export interface KernelFactoryOptions {
  /** The working directory: the local server's root, where kernels start (default: the process's). */
  readonly cwd?: string;
  /** The interpreter of the local server and its Python kernels (default `/usr/bin/python3`). */
  readonly python?: string;
  /**
   * The Jupyter server of a conversation's isolated environment, when it has one. Eval then runs that
   * conversation's kernels there and never starts (or stops) the environment itself.
   */
  readonly environment?: (
    conversationId: string | undefined,
  ) => JupyterEnvironment | undefined | Promise<JupyterEnvironment | undefined>;
  /** How long starting the local server, or a kernel, may take (default 60 s). */
  readonly startTimeoutMs?: number;
  /** Timeout of each REST request to a server (default 30 s). */
  readonly requestTimeoutMs?: number;
  /** Extra environment variables of local kernels. */
  readonly kernelEnv?: Readonly<Record<string, string>>;
  /**
   * How long an interrupted cell may take to stop before its kernel is given up and replaced (default 10 s):
   * code stuck in C, or ignoring SIGINT, cannot be interrupted.
   */
  readonly interruptGraceMs?: number;
  /**
   * The hard ceiling of one cell (default 30 minutes): a cell is interrupted after running this long, output or
   * not, time in bridged tool calls not counted. The idle budget alone would let a cell printing forever run
   * forever.
   */
  readonly cellCeilingMs?: number;
}

/** A kernel handed to a cell, with what the cell should tell the model about it. */
export interface AcquiredKernel {
  readonly session: KernelSession;
  /** True when this call started the kernel. */
  readonly started: boolean;
  /** Set when an earlier kernel of this conversation and language died: why, so the answer can say state was lost. */
  readonly lost?: string;
  /** Where it runs: `local` (the run's own server) or `environment` (the conversation's isolated environment). */
  readonly where: 'local' | 'environment';
}

/**
 * The kernel factory resource: one kernel per (conversation, language), started on first use on the
 * conversation's isolated environment's Jupyter server when it has one, otherwise on a local server this factory
 * starts lazily and stops on dispose. Creating it is free; nothing starts before the first cell.
 */
export interface KernelFactory extends AsyncDisposable {
  /** A private directory of the local server; it appears in the command line of every process the factory starts. */
  readonly stateDir: string;
  /** How long an interrupted cell may take to stop before its kernel is given up. */
  readonly interruptGraceMs: number;
  /** How long one cell may run in all, bridged calls not counted. */
  readonly cellCeilingMs: number;
  /** The kernel of this conversation and language, started if needed. */
  acquire(conversationId: string | undefined, language: KernelLanguage): Promise<AcquiredKernel>;
  /** Shuts the kernel of this conversation and language down; the next acquire starts a clean one. */
  reset(conversationId: string | undefined, language: KernelLanguage): Promise<boolean>;
  /** The kernels running now. */
  kernels(): { conversationId: string | undefined; language: KernelLanguage; id: string; where: 'local' | 'environment' }[];
  /** Shuts every kernel down and stops the local server. */
  dispose(): Promise<void>;
  /**
   * Tells `reporter` of a bug outside any call (a handler of a kernel's messages or events); the factory subscribes
   * the run's `reportError`. Optional, for a harness's own kernel factory.
   */
  onBackgroundError?(reporter: BackgroundReporter): () => void;
}

interface Server {
  readonly settings: ServerConnection.ISettings;
  readonly where: 'local' | 'environment';
  kernelName(language: KernelLanguage): Promise<string>;
}

interface Entry {
  readonly conversationId: string | undefined;
  readonly language: KernelLanguage;
  readonly where: 'local' | 'environment';
  readonly session: Promise<KernelSession>;
  /** The session once it has started. */
  ready?: KernelSession;
}

/** Creates the kernel factory resource. See {@link KernelFactory}. */
export function createKernelFactory(options: KernelFactoryOptions = {}): KernelFactory {
  return new JupyterKernelFactory(options);
}

class JupyterKernelFactory implements KernelFactory {
  readonly stateDir = join(tmpdir(), `agent-tools-eval-${randomUUID().slice(0, 8)}`);
  readonly #options: KernelFactoryOptions;
  readonly #entries = new Map<string, Entry>();
  /** Every session ever started, so dispose reaches one that a reset raced with. */
  readonly #started = new Set<Promise<KernelSession>>();
  /** Kernels being shut down after a reset. */
  readonly #closing = new Set<Promise<void>>();
  readonly #lost = new Map<string, string>();
  readonly #remotes = new Map<string, Server>();
  #local: { server: LocalJupyterServer; ready: Promise<Server> } | undefined;
  #disposed: Promise<void> | undefined;
  /** Aborted by dispose, so a kernel still starting fails at once instead of holding dispose up. */
  readonly #lifetime = new AbortController();
  /** Where bugs in the kernels' message and event handlers go: the runs that subscribed. */
  readonly #background = new BackgroundErrors();

  constructor(options: KernelFactoryOptions) {
    this.#options = options;
  }

  get interruptGraceMs(): number {
    return this.#options.interruptGraceMs ?? 10_000;
  }

  get cellCeilingMs(): number {
    return this.#options.cellCeilingMs ?? 30 * 60_000;
  }

  get #startTimeoutMs(): number {
    return this.#options.startTimeoutMs ?? 60_000;
  }

  get #requestTimeoutMs(): number {
    return this.#options.requestTimeoutMs ?? 30_000;
  }

  /**
   * Tells `reporter` of a bug thrown outside any call (a handler of a kernel's messages or events, a death or exit
   * listener); the factory subscribes the run's `reportError`. Returns the function that stops telling it.
   */
  onBackgroundError(reporter: BackgroundReporter): () => void {
    return this.#background.subscribe(reporter);
  }

  async acquire(conversationId: string | undefined, language: KernelLanguage): Promise<AcquiredKernel> {
    this.#checkOpen();
    const key = keyOf(conversationId, language);
    const existing = this.#entries.get(key);
    if (existing) {
      // A start that failed was answered to the call that started it; here it only means there is no kernel.
      const session = await existing.session.catch(() => undefined);
      if (session && !session.deathReason) return { session, started: false, where: existing.where };
      if (this.#entries.get(key) === existing) this.#entries.delete(key);
      if (session?.deathReason) this.#lost.set(key, session.deathReason);
    }
    const server = await this.#serverFor(conversationId);
    const entry: Entry = {
      conversationId,
      language,
      where: server.where,
      session: this.#startSession(server, language),
    };
    this.#entries.set(key, entry);
    let session: KernelSession;
    try {
      session = await entry.session;
      entry.ready = session;
    } catch (error) {
      if (this.#entries.get(key) === entry) this.#entries.delete(key);
      throw error;
    }
    session.onDeath((reason) => {
      if (this.#entries.get(key) === entry) {
        this.#entries.delete(key);
        this.#lost.set(key, reason);
        // The server may already be restarting the dead kernel; this one is never reused, so stop it.
        void session.shutdown();
      }
    });
    if (this.#disposed) {
      await session.shutdown();
      this.#checkOpen();
    }
    const lost = this.#lost.get(key);
    this.#lost.delete(key);
    return { session, started: true, where: server.where, ...(lost ? { lost } : {}) };
  }

  async reset(conversationId: string | undefined, language: KernelLanguage): Promise<boolean> {
    const key = keyOf(conversationId, language);
    this.#lost.delete(key);
    const entry = this.#entries.get(key);
    if (!entry) return false;
    this.#entries.delete(key);
    // A start that failed was answered to the call that started it; here it only means there is no kernel.
    const session = await entry.session.catch(() => undefined);
    if (session) {
      // The old kernel goes down in the background while the next one starts; dispose still waits for it.
      this.#started.delete(entry.session);
      const closing = session.shutdown().finally(() => this.#closing.delete(closing));
      this.#closing.add(closing);
    }
    return session !== undefined;
  }

  kernels(): ReturnType<KernelFactory['kernels']> {
    // A kernel still starting has no id yet and is not listed.
    return [...this.#entries.values()].flatMap((entry) =>
      entry.ready
        ? [{ conversationId: entry.conversationId, language: entry.language, id: entry.ready.id, where: entry.where }]
        : [],
    );
  }

  #startSession(server: Server, language: KernelLanguage): Promise<KernelSession> {
    const session = this.#launch(server, language);
    this.#started.add(session);
    session.then(
      (started) => started.onDeath(() => this.#started.delete(session)),
      () => this.#started.delete(session),
    );
    return session;
  }

  async #launch(server: Server, language: KernelLanguage): Promise<KernelSession> {
    const [services, kernelName] = await Promise.all([loadServices(), server.kernelName(language)]);
    const session = await KernelSession.start({
      services,
      where: server.where,
      settings: server.settings,
      kernelName,
      language,
      startTimeoutMs: this.#startTimeoutMs,
      signal: this.#lifetime.signal,
      background: this.#background,
      ...(language === 'python' ? { prelude: pythonPrelude() } : {}),
    });
    return session;
  }

  async #serverFor(conversationId: string | undefined): Promise<Server> {
    const environment = await this.#options.environment?.(conversationId);
    if (environment) return this.#remote(environment);
    return this.#localServer();
  }

  async #remote(environment: JupyterEnvironment): Promise<Server> {
    const endpoint = normalizeEndpoint(environment);
    const cacheKey = `${endpoint.baseUrl}\u0000${endpoint.token}\u0000${JSON.stringify(environment.kernelNames ?? {})}`;
    const cached = this.#remotes.get(cacheKey);
    if (cached) return cached;
    const services = await loadServices();
    const settings = serverSettings(services, endpoint, this.#requestTimeoutMs);
    let specs: Promise<{ name: string; language: string }[]> | undefined;
    const loadSpecs = (): Promise<{ name: string; language: string }[]> => {
      specs ??= services.KernelSpecAPI.getSpecs(settings).then(
        (models) => Object.values(models.kernelspecs).flatMap((spec) => (spec ? [{ name: spec.name, language: spec.language }] : [])),
        (error: unknown) => {
          specs = undefined;
          throw new EvalToolError(
            'server_unreachable',
            `The isolated environment's Jupyter server at ${endpoint.baseUrl} did not answer: ${(error as Error).message ?? error}`,
            { cause: error },
          );
        },
      );
      return specs;
    };
    const server: Server = {
      settings,
      where: 'environment',
      kernelName: async (language) => {
        const chosen = environment.kernelNames?.[language];
        if (chosen) return chosen;
        const available = await loadSpecs();
        const ours = available.find((spec) => spec.name === KERNEL_SPEC_NAMES[language]);
        const fallback = available.find((spec) => spec.language.toLowerCase() === language);
        const found = ours ?? fallback;
        if (!found) {
          throw new EvalToolError(
            'kernel_unavailable',
            `The isolated environment's Jupyter server has no ${language} kernel (it has: ${available.map((s) => s.name).join(', ') || 'none'}). ` +
              `Install eval's kernel specs there with installKernelSpecs() from @agent-tools/eval, or use ${language === 'python' ? 'JavaScript' : 'Python'}.`,
          );
        }
        return found.name;
      },
    };
    this.#remotes.set(cacheKey, server);
    return server;
  }

  #localServer(): Promise<Server> {
    if (this.#local) return this.#local.ready;
    const server = new LocalJupyterServer({
      python: this.#options.python ?? '/usr/bin/python3',
      cwd: this.#options.cwd ?? process.cwd(),
      stateDir: this.stateDir,
      startTimeoutMs: this.#startTimeoutMs,
      ...(this.#options.kernelEnv ? { kernelEnv: this.#options.kernelEnv } : {}),
    });
    const ready = Promise.all([server.start(), loadServices()]).then(([endpoint, services]): Server => ({
      settings: serverSettings(services, endpoint, this.#requestTimeoutMs),
      where: 'local',
      kernelName: async (language) => KERNEL_SPEC_NAMES[language],
    }));
    const local = { server, ready };
    this.#local = local;
    server.onExit(this.#background.guard((reason: string) => {
      if (this.#local === local) this.#local = undefined;
      for (const [key, entry] of this.#entries) {
        if (entry.where !== 'local') continue;
        this.#entries.delete(key);
        this.#lost.set(key, reason);
        // A session that failed to start was answered to the call that started it; nothing is left to mark.
        void entry.session.then((session) => session.markDead(reason), () => undefined);
      }
    }));
    // The start's failure is answered to whoever awaits it; here it only clears the entry.
    ready.catch(() => {
      if (this.#local === local) this.#local = undefined;
    });
    return ready;
  }

  #checkOpen(): void {
    if (this.#disposed) throw new EvalToolError('disposed', 'This run has ended and its kernels are shut down.');
  }

  dispose(): Promise<void> {
    this.#disposed ??= this.#dispose();
    return this.#disposed;
  }

  [Symbol.asyncDispose](): Promise<void> {
    return this.dispose();
  }

  async #dispose(): Promise<void> {
    this.#lifetime.abort();
    this.#entries.clear();
    const sessions = [...this.#started];
    this.#started.clear();
    const local = this.#local;
    this.#local = undefined;
    // Kernels on the run's own server go down with it (stopping it shuts them down); kernels on an environment's
    // server are shut down one by one, and the server is left running.
    await Promise.all([
      ...sessions.map(async (starting) => {
        // A start that failed was answered to the call that started it; nothing to shut down.
        const session = await starting.catch(() => undefined);
        if (!session) return;
        if (session.where === 'local' && local) session.close();
        // shutdown never throws: only the timeout can reject, and the run's server, stopped next, takes the kernel with it.
        else await withTimeout(session.shutdown(), 5000, 'shutdown timed out').catch(() => undefined);
      }),
      local?.server.stop(),
      ...this.#closing,
    ]);
    rmSync(this.stateDir, { recursive: true, force: true });
  }
}

function keyOf(conversationId: string | undefined, language: KernelLanguage): string {
  return `${conversationId ?? ''}\u0000${language}`;
}
