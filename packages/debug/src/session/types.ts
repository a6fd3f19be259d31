import type { BackgroundErrors } from '@agent-tools/core/internal';
import type { SelectedAdapter } from '../adapters/select.js';
import type { RequestOptions } from '../dap/connection.js';
import type { DapCommand, DapRequests, DebugProtocol } from '../dap/protocol.js';
import type { BreakpointBook } from './breakpoints.js';

/** How a session was started. */
export type SessionMode = 'launch' | 'attach';

/** Where a session is: starting up, running, stopped (inspectable), or over. */
export type SessionState = 'starting' | 'running' | 'stopped' | 'ended';

/** Why the program stopped, from the adapter's `stopped` event. */
export interface StopInfo {
  readonly reason: string;
  readonly description?: string;
  readonly text?: string;
  readonly threadId: number | undefined;
  readonly hitBreakpointIds?: readonly number[];
}

/** How a session ended. */
export type EndInfo =
  | { readonly kind: 'exited'; readonly exitCode: number | undefined }
  | { readonly kind: 'terminated' }
  | { readonly kind: 'detached' }
  | { readonly kind: 'crashed'; readonly detail: string }
  | { readonly kind: 'expired' }
  | { readonly kind: 'disposed' }
  | { readonly kind: 'failed'; readonly detail: string };

/** Timeouts of one session. */
export interface SessionTimeouts {
  /** Any request but launch/attach. */
  readonly requestMs: number;
  /** The launch or attach request (delve compiles the program while it runs). */
  readonly launchMs: number;
  /** A TCP adapter printing where it listens. */
  readonly startMs: number;
}

/** Everything a session is started from. */
export interface SessionSpec {
  readonly selected: SelectedAdapter;
  readonly mode: SessionMode;
  /** Absolute path of the launched program. */
  readonly program?: string;
  readonly args: readonly string[];
  /** The interpreter the model asked for (debugpy's `python`). */
  readonly interpreter?: string;
  /** The port attached to. */
  readonly port?: number;
  readonly book: BreakpointBook;
  /** The run's working directory, which paths in answers are shown relative to. */
  readonly cwd: string;
  readonly timeouts: SessionTimeouts;
  /** Clock time the session started (the supervisor's clock). */
  readonly startedAt: number;
  /** Where bugs outside any call go (the adapter's events, its close, timers): the supervisor's, told to the runs. */
  readonly background: BackgroundErrors;
}

/** What configuring breakpoints needs of a session (the session itself, seen from configure.ts). */
export interface ConfigurableSession {
  readonly adapterId: string;
  readonly capabilities: DebugProtocol.Capabilities;
  readonly spec: SessionSpec;
  request<C extends DapCommand>(command: C, args: DapRequests[C]['args'], options?: RequestOptions): Promise<DapRequests[C]['body']>;
}
