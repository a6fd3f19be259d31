import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server as NodeServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Registry } from '@agent-tools/core';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import type { McpSessionContext, ServeOptions } from '../session.js';
import { type McpSession, serveRegistry } from '../session.js';
import { isLoopback, LOOPBACK_HOSTS, refusal } from './request-guard.js';

/** How the Streamable HTTP server runs. */
export interface HttpServerOptions extends ServeOptions {
  /** Port to listen on (0: any free port; default 8808). */
  readonly port?: number;
  /** Address to listen on (default 127.0.0.1: loopback only). */
  readonly host?: string;
  /** Path of the MCP endpoint (default `/mcp`). */
  readonly path?: string;
  /**
   * A session with no request open for this long is ended and its run disposed (default 30 minutes). A call in
   * progress keeps its session; the client's standing GET stream does not.
   */
  readonly idleTimeoutMs?: number;
  /** Host names accepted in the Host header besides the loopback names and `host` itself. */
  readonly allowedHosts?: readonly string[];
  /** Origins accepted besides those on an allowed host. */
  readonly allowedOrigins?: readonly string[];
  /** When set, requests must carry `Authorization: Bearer <token>`. */
  readonly token?: string;
  /** Largest request body accepted, in bytes (default 4 MiB). */
  readonly maxBodyBytes?: number;
}

/** A running Streamable HTTP server. */
export interface McpHttpServer extends AsyncDisposable {
  /** The endpoint's URL, e.g. `http://127.0.0.1:8808/mcp`. */
  readonly url: URL;
  /** How many sessions are open. */
  readonly sessions: number;
  /** Ends every session (disposing its run) and stops listening. */
  close(): Promise<void>;
}

/** The default idle timeout of a session: long enough for a human to think, short of forever. */
export const DEFAULT_IDLE_TIMEOUT_MS = 30 * 60_000;

interface Entry {
  readonly transport: StreamableHTTPServerTransport;
  session?: McpSession;
  open: number;
  idle?: NodeJS.Timeout;
}

/**
 * Serves a per-session registry factory over Streamable HTTP: each MCP session (`Mcp-Session-Id`) is a run of its
 * own, created at initialize and disposed on DELETE, when its transport closes, or after the idle timeout. Requests
 * are checked before anything else: Host and Origin against DNS rebinding, then the bearer token when one is set.
 */
export async function serveHttp(
  factory: (session: McpSessionContext) => Registry | Promise<Registry>,
  options: HttpServerOptions = {},
): Promise<McpHttpServer> {
  const host = options.host ?? '127.0.0.1';
  const path = options.path ?? '/mcp';
  const idleMs = options.idleTimeoutMs ?? DEFAULT_IDLE_TIMEOUT_MS;
  const maxBody = options.maxBodyBytes ?? 4 * 1024 * 1024;
  const allowedHosts = [...LOOPBACK_HOSTS, ...(isLoopback(host) || host === '0.0.0.0' || host === '::' ? [] : [host]), ...(options.allowedHosts ?? [])].map((h) =>
    h.toLowerCase(),
  );
  const guard = { allowedHosts, allowedOrigins: options.allowedOrigins ?? [], ...(options.token ? { token: options.token } : {}) };
  const entries = new Map<string, Entry>();

  // Ended from a timer or a socket's close, where nothing awaits: a failure to close (the transport's, or a bug) is
  // told to onError instead of becoming an unhandled rejection.
  const endQuietly = (session: McpSession | undefined): void => {
    session?.close().catch((error: unknown) => options.onError?.(error));
  };

  const arm = (entry: Entry): void => {
    clearTimeout(entry.idle);
    if (entry.open > 0) return;
    entry.idle = setTimeout(() => endQuietly(entry.session), idleMs);
    entry.idle.unref();
  };

  const open = async (req: IncomingMessage, res: ServerResponse, body: unknown): Promise<void> => {
    const entry: Entry = {
      open: 1,
      transport: new StreamableHTTPServerTransport({
        sessionIdGenerator: randomUUID,
        onsessioninitialized: (id) => {
          entries.set(id, entry);
        },
      }),
    };
    const session = await serveRegistry(entry.transport, factory, options);
    entry.session = session;
    void session.closed.then(() => {
      clearTimeout(entry.idle);
      const id = entry.transport.sessionId;
      if (id) entries.delete(id);
    });
    res.once('close', () => {
      entry.open--;
      const id = entry.transport.sessionId;
      if (id && entries.has(id)) arm(entry);
      else if (!id) endQuietly(session); // initialize failed: nothing will ever address this transport
    });
    await entry.transport.handleRequest(req, res, body);
  };

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    const refused = refusal(req, guard);
    if (refused) return reply(res, refused.status, -32000, refused.message, refused.status === 401 ? { 'WWW-Authenticate': 'Bearer' } : {});
    if (url.pathname !== path) return reply(res, 404, -32000, `Not found: the MCP endpoint is ${path}.`);
    const id = header(req, 'mcp-session-id');
    if (id !== undefined) {
      const entry = entries.get(id);
      if (!entry) return reply(res, 404, -32001, 'Session not found: it ended (DELETE, idle timeout or server restart); initialize a new one.');
      // A GET is the client's standing stream for server messages, held open as long as it is connected: it is not
      // work, so only POSTs (requests being answered) keep a session from going idle.
      const work = req.method === 'POST';
      if (work) entry.open++;
      clearTimeout(entry.idle);
      res.once('close', () => {
        if (work) entry.open--;
        if (entries.has(id)) arm(entry);
      });
      return entry.transport.handleRequest(req, res);
    }
    if (req.method !== 'POST') return reply(res, 400, -32000, 'Bad Request: no Mcp-Session-Id; start a session with an initialize POST.');
    let body: unknown;
    try {
      body = JSON.parse(await readBody(req, maxBody));
    } catch (error) {
      const tooLarge = error instanceof BodyTooLarge;
      return reply(res, tooLarge ? 413 : 400, tooLarge ? -32000 : -32700, tooLarge ? `Request body larger than ${maxBody} bytes.` : 'Parse error: the body is not JSON.');
    }
    const initialize = Array.isArray(body) ? body.some(isInitializeRequest) : isInitializeRequest(body);
    if (!initialize) return reply(res, 400, -32000, 'Bad Request: no Mcp-Session-Id; start a session with an initialize request.');
    return open(req, res, body);
  };

  const http: NodeServer = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      options.onError?.(error);
      if (!res.headersSent) reply(res, 500, -32603, 'Internal error.');
      else res.end();
    });
  });
  await new Promise<void>((resolve, reject) => {
    http.once('error', reject);
    http.listen(options.port ?? 8808, host, () => resolve());
  });
  const address = http.address() as AddressInfo;
  const shown = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  const endpoint = new URL(`http://${shown}:${address.port}${path}`);

  let closing: Promise<void> | undefined;
  const close = (): Promise<void> => {
    closing ??= (async () => {
      const stopped = new Promise<void>((resolve) => http.close(() => resolve()));
      await Promise.all([...new Set(entries.values())].map((entry) => entry.session?.close()));
      http.closeAllConnections();
      await stopped;
    })();
    return closing;
  };
  return {
    url: endpoint,
    get sessions() {
      return entries.size;
    },
    close,
    [Symbol.asyncDispose]: close,
  };
}

class BodyTooLarge extends Error {}

function readBody(req: IncomingMessage, limit: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        reject(new BodyTooLarge());
        req.destroy();
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

function header(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/** A JSON-RPC error response with no id, as the SDK's transport answers requests it cannot route. */
function reply(res: ServerResponse, status: number, code: number, message: string, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'Content-Type': 'application/json', ...headers });
  res.end(JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id: null }));
}
