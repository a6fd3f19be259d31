import type { Readable, Writable } from 'node:stream';
import { formatLimit } from '@agent-tools/core/internal';
import { type ContentLengthLimits, ContentLengthReader, encodeContentLength, PendingRequests } from '@agent-tools/core/process';
import {
  AbstractMessageReader,
  AbstractMessageWriter,
  CancellationTokenSource,
  createMessageConnection,
  type DataCallback,
  type Disposable,
  ErrorCodes,
  type Message,
  type MessageConnection,
  type MessageWriter,
  ResponseError,
} from 'vscode-languageserver-protocol/node';
import { LspError } from '../errors.js';

/** Bounds of the reader that keep a misbehaving server from exhausting the harness's memory. */
export type FramingLimits = ContentLengthLimits;

/** A typed request from vscode-languageserver-protocol (`HoverRequest.type`), reduced to what we need. */
export interface RequestTypeLike<P, R> {
  readonly method: string;
  readonly _: [P, R, ...unknown[]] | undefined;
}

/** A typed notification from vscode-languageserver-protocol (`DidOpenTextDocumentNotification.type`). */
export interface NotificationTypeLike<P> {
  readonly method: string;
  readonly _: [P, ...unknown[]] | undefined;
}

/** An error a request handler throws to answer the server with a JSON-RPC error. */
export class RpcResponseError extends Error {
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(message);
  }
}

/** JSON-RPC's "method not found". */
export const METHOD_NOT_FOUND = ErrorCodes.MethodNotFound;
/** LSP's "request cancelled" (a server answering a request we cancelled). */
const LSP_REQUEST_CANCELLED = -32800;

/** How a connection is wired to a server process. */
export interface RpcConnectionOptions {
  /** How the server is named in error messages: `typescript-language-server (root .)`. */
  readonly name: string;
  readonly input: Readable;
  readonly output: Writable;
  readonly limits?: FramingLimits;
  onNotification(method: string, params: unknown): void;
  /** Answers a request of the server; throw {@link RpcResponseError} to answer with an error. */
  onRequest(method: string, params: unknown): unknown;
  onMalformed(reason: string): void;
  /** Told of a bug in a handler (ours or a configuration's hook), which answers nothing and must not stop the reader. */
  onBug?(error: unknown): void;
}

/** Per-request options. */
export interface RequestOptions {
  readonly timeoutMs: number;
  readonly signal?: AbortSignal;
}

/**
 * Reads messages through core's bounded Content-Length reader (stray output skipped up to the next header,
 * oversized bodies discarded as they stream past, every fault reported) instead of vscode-jsonrpc's own, which
 * buffers whatever the server prints and stops at the first bad header.
 */
class BoundedMessageReader extends AbstractMessageReader {
  readonly #input: Readable;
  readonly #limits: FramingLimits | undefined;
  readonly #malformed: (reason: string) => void;

  constructor(input: Readable, limits: FramingLimits | undefined, malformed: (reason: string) => void) {
    super();
    this.#input = input;
    this.#limits = limits;
    this.#malformed = malformed;
  }

  listen(callback: DataCallback): Disposable {
    const reader = new ContentLengthReader(
      {
        message: (message) => {
          const { id, method } = message as { id?: unknown; method?: unknown };
          // vscode-jsonrpc would only log these; they count toward the server's malformed output.
          if (typeof method !== 'string' && (typeof id !== 'number' && typeof id !== 'string')) {
            this.#malformed('a message is neither a request, a response nor a notification');
            return;
          }
          callback(message as Message);
        },
        malformed: (reason) => this.#malformed(reason),
      },
      this.#limits,
    );
    const onData = (chunk: Buffer): void => reader.push(chunk);
    const onClose = (): void => this.fireClose();
    const onError = (error: Error): void => this.fireError(error);
    this.#input.on('data', onData);
    this.#input.on('close', onClose);
    this.#input.on('error', onError);
    return {
      dispose: () => {
        this.#input.off('data', onData);
        this.#input.off('close', onClose);
        this.#input.off('error', onError);
      },
    };
  }
}

/** Writes messages with core's Content-Length framing, the same layer the reader above reads with. */
class FramedMessageWriter extends AbstractMessageWriter implements MessageWriter {
  readonly #output: Writable;

  constructor(output: Writable) {
    super();
    this.#output = output;
  }

  async write(message: Message): Promise<void> {
    if (this.#output.destroyed || !this.#output.writable) throw new Error('the server\'s input is closed');
    this.#output.write(encodeContentLength(message));
  }

  end(): void {}
}

/**
 * A JSON-RPC 2.0 connection to one server process on vscode-jsonrpc's `createMessageConnection`, which does the
 * protocol itself: ids, responses, `$/cancelRequest`, dispatch of the server's requests and notifications.
 * Kept here, because the library does not: a timeout on every request (it cancels the request and names the
 * server and the method), an AbortSignal per request, the bounded reader above, errors as {@link LspError}s,
 * and closing with a reason that fails every request in flight with it.
 */
export class RpcConnection {
  readonly #options: RpcConnectionOptions;
  readonly #connection: MessageConnection;
  readonly #pending = new PendingRequests<number>();
  #nextKey = 1;
  #closed: LspError | undefined;

  constructor(options: RpcConnectionOptions) {
    this.#options = options;
    // A write to a dead process fails with EPIPE; the exit handler reports it, so the stream error is ignored.
    options.output.on('error', () => {});
    const reader = new BoundedMessageReader(options.input, options.limits, (reason) => this.#malformed(reason));
    this.#connection = createMessageConnection(reader, new FramedMessageWriter(options.output));
    this.#connection.onNotification((method, params) => this.#guard(() => options.onNotification(method, params)));
    // vscode-jsonrpc routes `$/progress` to progress handlers, never to the generic notification handler.
    this.#connection.onUnhandledProgress((params) => this.#guard(() => options.onNotification('$/progress', params)));
    this.#connection.onRequest(async (method, params) => {
      try {
        return (await options.onRequest(method, params)) ?? null;
      } catch (error) {
        if (error instanceof RpcResponseError) return new ResponseError(error.code, error.message);
        // A bug answering the server: it learns the request failed, the harness learns of the bug.
        this.#bug(error);
        return new ResponseError(ErrorCodes.InternalError, (error as Error).message);
      }
    });
    // vscode-jsonrpc's own reader and writer faults (a closed pipe): the process's exit and the malformed count report them.
    this.#connection.onError(() => {});
    this.#connection.listen();
  }

  /** Requests in flight. */
  get pending(): number {
    return this.#pending.size;
  }

  /** Sends a typed request and waits for its answer. */
  request<P, R>(type: RequestTypeLike<P, R>, params: P, options: RequestOptions): Promise<R> {
    return this.requestRaw(type.method, params, options) as Promise<R>;
  }

  /** Sends a request by method name (for methods vscode-languageserver-protocol does not type). */
  requestRaw(method: string, params: unknown, options: RequestOptions): Promise<unknown> {
    const key = this.#nextKey++;
    const source = new CancellationTokenSource();
    const answer = this.#pending.wait(key, {
      timeoutMs: options.timeoutMs,
      signal: options.signal,
      timedOut: () => {
        return new LspError('timeout', `${this.#options.name} did not answer ${method} within ${formatLimit(options.timeoutMs)}.`);
      },
      cancelled: () => cancelled(method),
      settled: (how) => {
        // Cancelling sends `$/cancelRequest`; the late answer, if any, is dropped.
        if (how === 'timeout' || how === 'cancelled') source.cancel();
        source.dispose();
      },
    });
    if (this.#pending.closed || options.signal?.aborted) return answer;
    let sent: Promise<unknown>;
    try {
      sent = this.#connection.sendRequest(method, params, source.token);
    } catch (error) {
      this.#pending.reject(key, new LspError('server_exited', `${this.#options.name} could not be sent ${method}: ${(error as Error).message}`));
      return answer;
    }
    sent.then(
      (result) => this.#pending.resolve(key, result ?? null),
      (error: unknown) => this.#pending.reject(key, this.#failure(method, error)),
    );
    return answer;
  }

  /** Sends a typed notification. */
  notify<P>(type: NotificationTypeLike<P>, params: P): void {
    this.notifyRaw(type.method, params);
  }

  /** Sends a notification by method name (dropped silently when the connection is closed or the pipe broke). */
  notifyRaw(method: string, params: unknown): void {
    if (this.#closed) return;
    try {
      const sent = params === undefined ? this.#connection.sendNotification(method) : this.#connection.sendNotification(method, params);
      // The writer fails only when the server's input is closed; its exit handler reports why.
      sent.catch(() => {});
    } catch {
      // The process is gone; its exit handler reports why.
    }
  }

  /** Fails every request in flight with `reason`; later requests fail at once. */
  close(reason: LspError): void {
    if (this.#closed) return;
    this.#closed = reason;
    this.#pending.close(() => reason);
    this.#connection.dispose();
  }

  #failure(method: string, error: unknown): LspError {
    if (this.#closed) return this.#closed;
    if (error instanceof ResponseError) {
      const code = error.code === LSP_REQUEST_CANCELLED ? 'cancelled' : error.code === ErrorCodes.MethodNotFound ? 'unsupported' : 'request_failed';
      return new LspError(code, `${this.#options.name} answered ${method} with an error: ${error.message}`);
    }
    return new LspError('server_exited', `${this.#options.name} did not answer ${method}: ${(error as Error).message}`);
  }

  /** A handler bug must not take the reader down with it. */
  #guard(work: () => void): void {
    if (this.#closed) return;
    try {
      work();
    } catch (error) {
      // It counts against the server as before (its message may be what was wrong), and is reported as a bug.
      this.#malformed(`handling a message failed: ${(error as Error).message}`);
      this.#bug(error);
    }
  }

  #bug(error: unknown): void {
    try {
      this.#options.onBug?.(error);
    } catch {
      // The reporter is the harness's; a failing one has nowhere to go.
    }
  }

  #malformed(reason: string): void {
    try {
      this.#options.onMalformed(reason);
    } catch (error) {
      this.#bug(error);
    }
  }
}

function cancelled(method: string): LspError {
  return new LspError('cancelled', `The ${method} request was cancelled.`);
}
