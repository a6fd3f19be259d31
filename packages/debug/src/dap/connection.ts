import type { Readable, Writable } from 'node:stream';
import { AgentToolsError } from '@agent-tools/core';
import { type BackgroundErrors, formatLimit } from '@agent-tools/core/internal';
import { ContentLengthReader, encodeContentLength, PendingRequests } from '@agent-tools/core/process';
import type { DebugProtocol } from '@vscode/debugprotocol';
import { DebugError } from '../errors.js';
import { type CloseReason, describeClose } from './close-reason.js';
import type { DapCommand, DapEvent, DapRequests } from './protocol.js';

/** How a {@link DapConnection} names its adapter and bounds its requests. */
export interface DapConnectionOptions {
  /** The adapter's name, for messages ("debugpy"). */
  readonly name: string;
  /** How long a request may go unanswered (default 10 s). */
  readonly requestTimeoutMs?: number;
  /**
   * Answers the adapter's reverse requests: a promise for one it handles (its value is the response body, a
   * rejection a failure), `undefined` for one it declines. Without it every reverse request is declined.
   */
  readonly reverseRequest?: (command: string, args: unknown) => Promise<unknown> | undefined;
  /**
   * Where a bug in an event or close listener or a reverse-request handler goes: they run from the stream's data
   * handler, where a throw would end the process. Without it such a bug becomes a process warning.
   */
  readonly background?: BackgroundErrors;
}

/** Per-request options. */
export interface RequestOptions {
  readonly timeoutMs?: number;
  readonly signal?: AbortSignal;
}

/**
 * A DAP client over a pair of streams (an adapter's stdio, or a TCP socket): typed requests with timeouts,
 * events, and answers to the adapter's reverse requests. Framing is core's `ContentLengthReader`, so a line an
 * adapter prints to stdout is skipped instead of ending the session. When the streams close every pending request fails
 * with an `adapter_exited` error, so no caller waits forever on a dead adapter.
 */
export class DapConnection {
  readonly #output: Writable;
  readonly #options: DapConnectionOptions;
  readonly #pending = new PendingRequests<number>();
  /** The command of each request still waiting, for the close's message. */
  readonly #commands = new Map<number, string>();
  readonly #eventListeners = new Set<(event: DapEvent) => void>();
  readonly #closeListeners = new Set<(reason: CloseReason) => void>();
  #seq = 1;
  #closeReason: CloseReason | undefined;

  constructor(input: Readable, output: Writable, options: DapConnectionOptions) {
    this.#output = output;
    this.#options = options;
    const reader = new ContentLengthReader({
      message: (message) => this.#dispatch(message as DebugProtocol.ProtocolMessage),
      // Stray output (an adapter's log line on stdout) and unusable headers are skipped and the stream stays in
      // step: they must not end the session. A framed body that is not JSON means the adapter itself is broken.
      malformed: (reason, kind) => {
        if (kind === 'bad-body') this.close({ kind: 'malformed', detail: reason });
      },
    });
    input.on('data', (chunk: Buffer) => reader.push(chunk));
    input.on('end', () => this.close({ kind: 'eof' }));
    input.on('close', () => this.close({ kind: 'eof' }));
    input.on('error', (error) => this.close({ kind: 'stream_error', detail: error.message }));
    // A write to an adapter that just died raises EPIPE asynchronously; the close handling above reports it.
    output.on('error', () => undefined);
  }

  /** Why the connection closed, once it has. */
  get closeReason(): CloseReason | undefined {
    return this.#closeReason;
  }

  /** Sends a request and resolves with the response body; rejects on failure, timeout, abort or close. */
  request<C extends DapCommand>(
    command: C,
    args: DapRequests[C]['args'],
    options: RequestOptions = {},
  ): Promise<DapRequests[C]['body']> {
    const seq = this.#seq++;
    const timeoutMs = options.timeoutMs ?? this.#options.requestTimeoutMs ?? 10_000;
    this.#commands.set(seq, command);
    const answer = this.#pending.wait(seq, {
      timeoutMs,
      signal: options.signal,
      timedOut: () => {
        return new DebugError('request_timeout', `The ${this.#options.name} adapter did not answer "${command}" within ${formatLimit(timeoutMs)}.`);
      },
      cancelled: () => new DebugError('cancelled', `The "${command}" request to the ${this.#options.name} adapter was cancelled.`),
      settled: () => this.#commands.delete(seq),
    }) as Promise<DapRequests[C]['body']>;
    if (this.#closeReason !== undefined || options.signal?.aborted) {
      this.#commands.delete(seq);
      return answer;
    }
    const message: DebugProtocol.Request = { seq, type: 'request', command, ...(args === undefined ? {} : { arguments: args }) };
    this.#write(message);
    return answer;
  }

  /** Listens to every event; returns the unsubscribe function. */
  onEvent(listener: (event: DapEvent) => void): () => void {
    this.#eventListeners.add(listener);
    return () => this.#eventListeners.delete(listener);
  }

  /** Called once when the connection closes, with the reason. */
  onClose(listener: (reason: CloseReason) => void): () => void {
    if (this.#closeReason !== undefined) {
      listener(this.#closeReason);
      return () => undefined;
    }
    this.#closeListeners.add(listener);
    return () => this.#closeListeners.delete(listener);
  }

  /** Closes the connection: pending requests fail, listeners hear the reason. Idempotent. */
  close(reason: CloseReason): void {
    if (this.#closeReason !== undefined) return;
    this.#closeReason = reason;
    this.#pending.close((seq) => this.#closedError(this.#commands.get(seq) ?? 'a request'));
    for (const listener of this.#closeListeners) this.#run(() => listener(reason));
    this.#closeListeners.clear();
    this.#eventListeners.clear();
    this.#output.end();
  }

  #closedError(command: string): DebugError {
    return new DebugError(
      'adapter_exited',
      `The ${this.#options.name} adapter cannot answer "${command}": ${this.#closeReason ? describeClose(this.#closeReason) : 'the connection is closed'}.`,
    );
  }

  #write(message: DebugProtocol.ProtocolMessage): void {
    if (this.#closeReason !== undefined || this.#output.destroyed) return;
    this.#output.write(encodeContentLength(message));
  }

  #dispatch(message: DebugProtocol.ProtocolMessage): void {
    if (message.type === 'response') {
      const response = message as DebugProtocol.Response;
      if (response.success) this.#pending.resolve(response.request_seq, response.body);
      else this.#pending.reject(response.request_seq, new DebugError('request_failed', describeFailure(this.#options.name, response)));
    } else if (message.type === 'event') {
      const event = message as DebugProtocol.Event;
      const typed = { event: event.event, body: event.body } as DapEvent;
      for (const listener of [...this.#eventListeners]) this.#run(() => listener(typed));
    } else if (message.type === 'request') {
      // Reverse requests (runInTerminal, startDebugging): answered by the owner when it handles them (js-debug
      // announces every debug target with startDebugging), declined otherwise rather than leaving the adapter waiting.
      const request = message as DebugProtocol.Request;
      let handled: Promise<unknown> | undefined;
      try {
        handled = this.#options.reverseRequest?.(request.command, request.arguments);
      } catch (error) {
        this.#bug(error);
        this.#reply(request, false, `agent-tools failed to handle "${request.command}"`);
        return;
      }
      if (!handled) {
        this.#reply(request, false, `agent-tools does not support the reverse request "${request.command}"`);
        return;
      }
      handled.then(
        (body) => this.#reply(request, true, undefined, body),
        (error: unknown) => {
          // An AgentToolsError is the handler's answer to the adapter; anything else is also a bug of ours.
          if (!AgentToolsError.isInstance(error)) this.#bug(error);
          this.#reply(request, false, error instanceof Error ? error.message : String(error));
        },
      );
    }
  }

  /** Runs a listener: a bug in it is reported and the next listener still runs. */
  #run(listener: () => void): void {
    try {
      listener();
    } catch (error) {
      this.#bug(error);
    }
  }

  #bug(error: unknown): void {
    if (this.#options.background) this.#options.background.report(error);
    else process.emitWarning(error instanceof Error ? error : new Error(String(error)), { code: 'AGENT_TOOLS_BACKGROUND_ERROR' });
  }

  #reply(request: DebugProtocol.Request, success: boolean, message?: string, body?: unknown): void {
    const reply: DebugProtocol.Response = {
      seq: this.#seq++,
      type: 'response',
      request_seq: request.seq,
      command: request.command,
      success,
      ...(message !== undefined ? { message } : {}),
      ...(body !== undefined ? { body } : {}),
    };
    this.#write(reply);
  }
}

/** The adapter's error as one sentence: its short message and its formatted detail when it sent one. */
function describeFailure(name: string, response: DebugProtocol.Response): string {
  const error = (response as DebugProtocol.ErrorResponse).body?.error;
  const detail = error ? formatDapMessage(error) : '';
  const short = response.message && response.message !== detail ? response.message : '';
  const text = [short, detail].filter(Boolean).join(': ') || 'no reason given';
  return `The ${name} adapter refused "${response.command}": ${text}`;
}

/** Fills a DAP error message's `{name}` placeholders with its variables. */
export function formatDapMessage(message: DebugProtocol.Message): string {
  return message.format.replace(/\{([^}]+)\}/g, (whole, key: string) => message.variables?.[key] ?? whole);
}
