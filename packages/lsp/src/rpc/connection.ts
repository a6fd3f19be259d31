import type { Readable, Writable } from 'node:stream';
import { LspError } from '../errors.js';
import { encodeMessage, type FramingLimits, MessageReader } from './framing.js';

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
export const METHOD_NOT_FOUND = -32601;
const REQUEST_CANCELLED = -32800;
const CANCEL_METHOD = '$/cancelRequest';

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
}

/** Per-request options. */
export interface RequestOptions {
  readonly timeoutMs: number;
  readonly signal?: AbortSignal;
}

interface Pending {
  readonly method: string;
  resolve(value: unknown): void;
  reject(error: unknown): void;
}

/**
 * A JSON-RPC 2.0 connection to one server process. Every request has a timeout and honours an AbortSignal
 * (both send `$/cancelRequest`); closing the connection fails every request in flight with the reason.
 */
export class RpcConnection {
  readonly #options: RpcConnectionOptions;
  readonly #pending = new Map<number, Pending>();
  #nextId = 1;
  #closed: LspError | undefined;

  constructor(options: RpcConnectionOptions) {
    this.#options = options;
    const reader = new MessageReader(
      { message: (m) => this.#dispatch(m as Record<string, unknown>), malformed: (r) => this.#malformed(r) },
      options.limits,
    );
    options.input.on('data', (chunk: Buffer) => reader.push(chunk));
    // A write to a dead process fails with EPIPE; the exit handler reports it, so the stream error is ignored.
    options.output.on('error', () => {});
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
    if (this.#closed) return Promise.reject(this.#closed);
    if (options.signal?.aborted) return Promise.reject(cancelled(method));
    const id = this.#nextId++;
    return new Promise<unknown>((resolve, reject) => {
      const cleanup = (): void => {
        clearTimeout(timer);
        options.signal?.removeEventListener('abort', onAbort);
        this.#pending.delete(id);
      };
      const timer = setTimeout(() => {
        cleanup();
        this.#send({ jsonrpc: '2.0', method: CANCEL_METHOD, params: { id } });
        const seconds = Math.round(options.timeoutMs / 100) / 10;
        reject(new LspError('timeout', `${this.#options.name} did not answer ${method} within ${seconds} s.`));
      }, options.timeoutMs);
      const onAbort = (): void => {
        cleanup();
        this.#send({ jsonrpc: '2.0', method: CANCEL_METHOD, params: { id } });
        reject(cancelled(method));
      };
      options.signal?.addEventListener('abort', onAbort, { once: true });
      this.#pending.set(id, {
        method,
        resolve: (value) => {
          cleanup();
          resolve(value);
        },
        reject: (error) => {
          cleanup();
          reject(error);
        },
      });
      this.#send({ jsonrpc: '2.0', id, method, params });
    });
  }

  /** Sends a typed notification. */
  notify<P>(type: NotificationTypeLike<P>, params: P): void {
    this.notifyRaw(type.method, params);
  }

  /** Sends a notification by method name. */
  notifyRaw(method: string, params: unknown): void {
    if (this.#closed) return;
    this.#send(params === undefined ? { jsonrpc: '2.0', method } : { jsonrpc: '2.0', method, params });
  }

  /** Fails every request in flight with `reason`; later requests fail at once. */
  close(reason: LspError): void {
    if (this.#closed) return;
    this.#closed = reason;
    for (const pending of [...this.#pending.values()]) pending.reject(reason);
    this.#pending.clear();
  }

  #send(message: unknown): void {
    const output = this.#options.output;
    if (output.destroyed || output.writableEnded) return;
    output.write(encodeMessage(message));
  }

  #dispatch(message: Record<string, unknown>): void {
    if (this.#closed) return;
    try {
      const { id, method } = message;
      if (typeof method === 'string') {
        if (id === undefined || id === null) this.#options.onNotification(method, message['params']);
        else void this.#answer(id, method, message['params']);
        return;
      }
      if (typeof id === 'number' || typeof id === 'string') {
        const pending = this.#pending.get(Number(id));
        if (!pending) return; // An answer to a request that already timed out.
        const error = message['error'] as { code?: number; message?: string } | undefined;
        if (error) {
          const text = typeof error.message === 'string' ? error.message : JSON.stringify(error);
          const code = error.code === REQUEST_CANCELLED ? 'cancelled' : error.code === METHOD_NOT_FOUND ? 'unsupported' : 'request_failed';
          pending.reject(new LspError(code, `${this.#options.name} answered ${pending.method} with an error: ${text}`));
        } else {
          pending.resolve(message['result'] ?? null);
        }
        return;
      }
      this.#malformed('a message is neither a request, a response nor a notification');
    } catch (error) {
      // A handler bug must not take the reader down with it.
      this.#malformed(`handling a message failed: ${(error as Error).message}`);
    }
  }

  async #answer(id: unknown, method: string, params: unknown): Promise<void> {
    try {
      const result = await this.#options.onRequest(method, params);
      this.#send({ jsonrpc: '2.0', id, result: result ?? null });
    } catch (error) {
      const code = error instanceof RpcResponseError ? error.code : -32603;
      this.#send({ jsonrpc: '2.0', id, error: { code, message: (error as Error).message } });
    }
  }

  #malformed(reason: string): void {
    try {
      this.#options.onMalformed(reason);
    } catch {
      // Reporting is best effort.
    }
  }
}

function cancelled(method: string): LspError {
  return new LspError('cancelled', `The ${method} request was cancelled.`);
}
