import type { BackgroundErrors } from '@agent-tools/core/internal';
import type { ClockTimer } from '../clock.js';
import { DebugError } from '../errors.js';
import { BreakpointBook } from './breakpoints.js';
import { DebugSession } from './session.js';
import type { SessionSpec } from './types.js';

/** What a conversation needs from its supervisor. */
export interface ConversationHost {
  readonly ttlMs: number;
  /** Where bugs outside any call go (the time-to-live's timer, the sessions' adapter events). */
  readonly background: BackgroundErrors;
  now(): number;
  setTimer(callback: () => void, ms: number): ClockTimer;
}

/**
 * The debugging state of one conversation: its breakpoints (which outlive sessions) and at most one session,
 * which is killed when its time-to-live runs out.
 */
export class ConversationDebugger {
  readonly id: string;
  readonly book = new BreakpointBook();
  /** The book's version when an answer last showed the breakpoints. */
  breakpointsReported = -1;
  readonly #host: ConversationHost;
  #session: DebugSession | undefined;
  #timer: ClockTimer | undefined;
  #notice: string | undefined;
  #disposed = false;

  constructor(id: string, host: ConversationHost) {
    this.id = id;
    this.#host = host;
  }

  /** The current or last session (check `end`). */
  get session(): DebugSession | undefined {
    return this.#session;
  }

  /** The session while it is alive. */
  get live(): DebugSession | undefined {
    return this.#session && !this.#session.ending ? this.#session : undefined;
  }

  /** A one-time message for the next answer (the session expired between calls). */
  takeNotice(): string | undefined {
    const notice = this.#notice;
    this.#notice = undefined;
    return notice;
  }

  /** Expires the session now when its time is up (a fake clock may not fire timers on its own). */
  async checkExpiry(): Promise<void> {
    const session = this.live;
    if (session && this.#host.now() - session.spec.startedAt >= this.#host.ttlMs) await this.expire(session);
  }

  /**
   * Starts a session, refusing while another runs or starts: a second launch never replaces the first.
   * `describe` names the running session in the refusal.
   */
  async start(spec: Omit<SessionSpec, 'book' | 'startedAt' | 'background'>, describe: (session: DebugSession) => string, signal?: AbortSignal): Promise<DebugSession> {
    await this.checkExpiry();
    // The run may have ended while the adapter was looked up: start nothing after dispose.
    if (this.#disposed) throw new DebugError('disposed', 'The run has ended, so no debug session can start.');
    const live = this.live;
    if (live) {
      throw new DebugError(
        'session_running',
        `A debug session is already running in this conversation: ${describe(live)}. Call terminate first to end it, or keep working with it.`,
      );
    }
    // Registered before it starts, so a dispose during a slow launch (delve compiling) still kills it.
    const session = new DebugSession({ ...spec, book: this.book, startedAt: this.#host.now(), background: this.#host.background });
    this.#session = session;
    this.#notice = undefined;
    this.#timer?.cancel();
    this.#timer = this.#host.setTimer(() => this.#host.background.watch(this.expire(session)), this.#host.ttlMs);
    await session.begin(signal);
    return session;
  }

  /** Ends the session because its 30 minutes are up; the next call is told so. */
  async expire(session: DebugSession): Promise<void> {
    if (session !== this.#session || session.ending) return;
    const minutes = Math.round(this.#host.ttlMs / 60_000);
    this.#notice = `The debug session (${session.adapterId}) reached its ${minutes}-minute limit and was terminated; its processes are gone. Call launch to start a new one.`;
    await session.shutdown({ kind: 'expired' }, true);
  }

  /** Ends the session (if any) for the registry's dispose. */
  async dispose(): Promise<void> {
    this.#disposed = true;
    this.#timer?.cancel();
    await this.#session?.shutdown({ kind: 'disposed' }, true);
  }
}
