import { BackgroundErrors, type BackgroundReporter } from '@agent-tools/core/internal';
import type { AdapterConfig } from './adapters/adapter.js';
import { mergeAdapters } from './adapters/builtin.js';
import { type Clock, systemClock } from './clock.js';
import { DebugError } from './errors.js';
import { ConversationDebugger } from './session/conversation.js';
import type { SessionTimeouts } from './session/types.js';

/** How a {@link DebugSupervisor} behaves. Every field has a default. */
export interface DebugSupervisorOptions {
  /** Adapters added to the built-in dart, debugpy, lldb, delve and js; one with a built-in id replaces it. */
  readonly adapters?: readonly AdapterConfig[];
  /** Injectable time, for tests of the time-to-live. */
  readonly clock?: Clock;
  /** Hard lifetime of a session (default 30 minutes). */
  readonly ttlMs?: number;
  /** How long launch, continue, pause and steps wait for the program to stop or exit (default 15 s). */
  readonly waitMs?: number;
  /** How long any DAP request may go unanswered (default 10 s). */
  readonly requestTimeoutMs?: number;
  /** How long the launch or attach request may take: delve compiles the program meanwhile (default 90 s). */
  readonly launchTimeoutMs?: number;
  /** How long a TCP adapter may take to say where it listens (default 15 s). */
  readonly startTimeoutMs?: number;
  /** The environment adapters are looked up in and started with (default `process.env`). */
  readonly env?: NodeJS.ProcessEnv;
  /**
   * js-debug's DAP server (`dapDebugServer.js`, or the `js-debug` folder of a release) for the js adapter; by default
   * it is looked for in `AGENT_TOOLS_JS_DEBUG`, VS Code, nvim Mason, an unpacked release and npm packages.
   */
  readonly jsDebugPath?: string;
}

/**
 * The debug-session supervisor: the resource behind the `debug` tool. It knows the adapters, keeps one
 * debugging state per conversation (breakpoints and at most one session with a hard time-to-live), and kills
 * every adapter and debuggee process on dispose. Processes start lazily, at `launch` or `attach`.
 */
export class DebugSupervisor implements AsyncDisposable {
  readonly adapters: readonly AdapterConfig[];
  readonly clock: Clock;
  readonly ttlMs: number;
  readonly waitMs: number;
  readonly timeouts: SessionTimeouts;
  readonly env: NodeJS.ProcessEnv;
  readonly #conversations = new Map<string, ConversationDebugger>();
  /** Where bugs outside any call go (adapter events, closes, the time-to-live): the runs that subscribed. */
  readonly #background = new BackgroundErrors();
  #disposed: Promise<void> | undefined;

  constructor(options: DebugSupervisorOptions = {}) {
    this.adapters = mergeAdapters(options.adapters, options.jsDebugPath ? { path: options.jsDebugPath } : {});
    this.clock = options.clock ?? systemClock;
    this.ttlMs = options.ttlMs ?? 30 * 60_000;
    this.waitMs = options.waitMs ?? 15_000;
    this.timeouts = {
      requestMs: options.requestTimeoutMs ?? 10_000,
      launchMs: options.launchTimeoutMs ?? 90_000,
      startMs: options.startTimeoutMs ?? 15_000,
    };
    this.env = options.env ?? process.env;
  }

  /** Whether {@link dispose} was called. */
  get disposed(): boolean {
    return this.#disposed !== undefined;
  }

  /** The debugging state of a conversation, created on first use. */
  conversation(id: string): ConversationDebugger {
    if (this.#disposed) throw new DebugError('disposed', 'The debug supervisor has been disposed; this run can no longer debug.');
    let conversation = this.#conversations.get(id);
    if (!conversation) {
      conversation = new ConversationDebugger(id, {
        ttlMs: this.ttlMs,
        background: this.#background,
        now: () => this.clock.now(),
        setTimer: (callback, ms) => this.clock.setTimer(callback, ms),
      });
      this.#conversations.set(id, conversation);
    }
    return conversation;
  }

  /**
   * Tells `reporter` of a bug thrown outside any call (an adapter's event or close handler, a session's timer); the
   * factory subscribes the run's `reportError`. Returns the function that stops telling it.
   */
  onBackgroundError(reporter: BackgroundReporter): () => void {
    return this.#background.subscribe(reporter);
  }

  /** Ends every session and kills every adapter and debuggee. Safe to call twice. */
  dispose(): Promise<void> {
    this.#disposed ??= Promise.all([...this.#conversations.values()].map((c) => c.dispose())).then(() => undefined);
    return this.#disposed;
  }

  [Symbol.asyncDispose](): Promise<void> {
    return this.dispose();
  }
}

/** Creates a debug supervisor (the `debugSupervisor` resource). */
export function createDebugSupervisor(options: DebugSupervisorOptions = {}): DebugSupervisor {
  return new DebugSupervisor(options);
}
