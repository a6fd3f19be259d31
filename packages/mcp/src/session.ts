import type { QuestionPort, TargetSpace } from '@agent-tools/ask';
import { type ApprovalCallback, errorSentence, type Registry, type Surface } from '@agent-tools/core';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import type { RequestHandlerExtra } from '@modelcontextprotocol/sdk/shared/protocol.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import {
  type CallToolRequest,
  CallToolRequestSchema,
  type ClientCapabilities,
  ErrorCode,
  type Implementation,
  ListToolsRequestSchema,
  McpError,
  type RequestId,
  type Root,
  type ServerNotification,
  type ServerRequest,
  type Tool,
} from '@modelcontextprotocol/sdk/types.js';
import { type ApprovalMode, approvalFor } from './approval-mode.js';
import { callResult } from './call-result.js';
import { CallScopes } from './call-scope.js';
import { ElicitationPort } from './elicitation-port.js';
import { progressSender } from './progress.js';
import { mcpTool } from './tool-list.js';

/** What a per-session registry factory learns about its session. */
export interface McpSessionContext {
  /** The `Mcp-Session-Id` over Streamable HTTP; undefined over stdio. */
  readonly sessionId: string | undefined;
  /** Asks the client's human through elicitation; detached (fail-closed) when the client has no elicitation. */
  readonly questionPort: QuestionPort;
  /** Where the session's cards are shown: the MCP client. */
  readonly targetSpace: TargetSpace;
  /** The approval callback of the server's approval mode, asking through {@link questionPort} for `elicit`. */
  readonly approve: ApprovalCallback;
  readonly clientInfo: Implementation | undefined;
  readonly clientCapabilities: ClientCapabilities | undefined;
  /** The client's roots (MCP roots); empty when the client does not offer them. */
  listRoots(): Promise<Root[]>;
  /** Aborted when the session ends. */
  readonly signal: AbortSignal;
}

/** A registry to serve, or a function that assembles one for each session (disposed when the session ends). */
export type RegistrySource = Registry | ((session: McpSessionContext) => Registry | Promise<Registry>);

/** How a registry is served. */
export interface ServeOptions {
  /** The surface whose tools the session lists and calls (default: the registry's). Fixed for the session. */
  readonly surface?: Surface | string;
  /** Who approves write and exec calls in a factory-made registry (default `client`); see {@link ApprovalMode}. */
  readonly approval?: ApprovalMode;
  /** How long a permission form waits for the human under `elicit` (default 10 minutes, as `permissionApproval`). */
  readonly permissionTimeoutMs?: number;
  /** The name and version the server reports at initialize. */
  readonly serverInfo?: Implementation;
  /** Instructions the server gives the client at initialize. */
  readonly instructions?: string;
  /** Whether a tool's structured data is sent as `structuredContent` (default true). */
  readonly structuredContent?: boolean;
  /** Titles for tools this package does not know. */
  readonly titles?: Readonly<Record<string, string>>;
  /**
   * The `tools/list` answer when it is known without the registry (a harness that loads its packages lazily keeps
   * it with its build): `tools/list` then assembles nothing, and a factory-made registry is assembled at the first
   * call. It must be what the registry would list for the surface; `undefined` from it lists from the registry.
   */
  readonly listTools?: () => readonly Tool[] | undefined;
  /**
   * Told of failures outside any call (a factory that threw, a dispose that failed) and of a permission form under
   * `elicit` that could not be asked (the elicitation failed), for logs.
   */
  readonly onError?: (error: unknown) => void;
}

/** One served session. */
export interface McpSession {
  readonly server: Server;
  /** Resolves once the session has ended and its registry (when made for it) is disposed. */
  readonly closed: Promise<void>;
  /** Ends the session: closes the transport and disposes a registry made for it. */
  close(): Promise<void>;
  /**
   * Resolves once no tools/list or tools/call request is being answered (at once when none is): a transport whose
   * client ended its input can answer what it already read before closing.
   */
  answered(): Promise<void>;
}

/** How long the client may take to list its roots. */
const ROOTS_TIMEOUT_MS = 10_000;

const DEFAULT_INFO: Implementation = { name: 'agent-tools', version: '0.0.0' };

/**
 * Serves a registry on an MCP transport (stdio, Streamable HTTP, in-memory): tools/list answers the surface's tools
 * with their JSON Schemas, titles and tier annotations; tools/call runs `registry.call` with the request's abort
 * signal and, when it carries a progress token, forwards progress as `notifications/progress`. ask_user and
 * `elicit` approvals ask through elicitation when a factory builds the registry from the session's context.
 * When the transport closes, a registry the factory made is disposed, which ends every process of the session.
 */
export async function serveRegistry(transport: Transport, source: RegistrySource, options: ServeOptions = {}): Promise<McpSession> {
  const server = new Server(options.serverInfo ?? DEFAULT_INFO, {
    capabilities: { tools: { listChanged: false } },
    ...(options.instructions ? { instructions: options.instructions } : {}),
  });
  const calls = new CallScopes();
  const ended = new AbortController();
  const port = new ElicitationPort(server, calls);
  const target: TargetSpace = { id: transport.sessionId ?? 'mcp', name: 'the MCP client' };
  const owned = typeof source === 'function';
  let registry: Promise<Registry> | undefined;
  // The request that first needs the registry carries the server's own requests of its set-up (roots/list).
  const session = (requestId: RequestId): Promise<Registry> => {
    if (typeof source !== 'function') return Promise.resolve(source);
    if (registry) return registry;
    registry = Promise.resolve().then(() =>
      source({
        sessionId: transport.sessionId,
        questionPort: port,
        targetSpace: target,
        approve: approvalFor(options.approval ?? 'client', port, target, options.permissionTimeoutMs, options.onError),
        clientInfo: server.getClientVersion(),
        clientCapabilities: server.getClientCapabilities(),
        listRoots: async () =>
          server.getClientCapabilities()?.roots ? (await server.listRoots(undefined, { relatedRequestId: requestId, timeout: ROOTS_TIMEOUT_MS })).roots : [],
        signal: ended.signal,
      }),
    );
    // Every request of the session awaits this one promise: its failure is told to onError once, not per request.
    registry.catch((error: unknown) => options.onError?.(error));
    return registry;
  };
  const ready = async (requestId: RequestId): Promise<Registry> => {
    try {
      return await session(requestId);
    } catch (error) {
      throw new McpError(ErrorCode.InternalError, `The session's tools could not be set up: ${errorSentence(error)}`);
    }
  };

  /** Tells the harness's onError of a bug; a logger that throws has nowhere to go and changes no answer. */
  const tell = (error: unknown): void => {
    try {
      options.onError?.(error);
    } catch {
      // The harness's logger failed; the client's answer does not depend on it.
    }
  };

  let answering = 0;
  const whenAnswered: (() => void)[] = [];
  const answer = async <T>(work: () => Promise<T>): Promise<T> => {
    answering++;
    try {
      return await work();
    } catch (error) {
      // An McpError is the answer (an unknown tool, tools that could not be set up, told once already); anything else
      // is a bug (ours, or the harness's listTools) that the SDK would only send to the client: the harness hears too.
      if (!(error instanceof McpError)) tell(error);
      throw error;
    } finally {
      answering--;
      if (answering === 0) for (const resolve of whenAnswered.splice(0)) resolve();
    }
  };

  server.setRequestHandler(ListToolsRequestSchema, (_, extra) =>
    answer(async () => {
      const listed = options.listTools?.();
      if (listed) return { tools: [...listed] };
      const reg = await ready(extra.requestId);
      return { tools: reg.tools(options.surface).map((tool) => mcpTool(tool, options.titles)) };
    }),
  );

  const callTool = async (request: CallToolRequest, extra: RequestHandlerExtra<ServerRequest, ServerNotification>) => {
    const reg = await ready(extra.requestId);
    const { name, arguments: args } = request.params;
    if (!reg.disposed && !reg.has(name, options.surface)) {
      throw new McpError(ErrorCode.InvalidParams, reg.unknownToolText(name, options.surface));
    }
    const token = extra._meta?.progressToken;
    const result = await calls.run(extra.requestId, () =>
      reg.call(name, args ?? {}, {
        signal: extra.signal,
        ...(options.surface === undefined ? {} : { surface: options.surface }),
        ...(token === undefined ? {} : { onProgress: progressSender(token, extra.sendNotification) }),
      }),
    );
    return callResult(result, options.structuredContent ?? true);
  };

  server.setRequestHandler(CallToolRequestSchema, (request, extra) => answer(() => callTool(request, extra)));

  let resolveClosed: () => void = () => {};
  const closed = new Promise<void>((resolve) => {
    resolveClosed = resolve;
  });
  server.onclose = () => {
    ended.abort(new Error('the MCP session ended'));
    // A registry that failed to assemble was reported when it failed; only a dispose failure is new.
    const dispose = owned && registry ? registry.then((reg) => reg.dispose(), () => undefined) : Promise.resolve();
    dispose.catch((error: unknown) => options.onError?.(error)).finally(resolveClosed);
  };
  server.onerror = (error) => options.onError?.(error);
  await server.connect(transport);
  return {
    server,
    closed,
    close: async () => {
      await server.close();
      await closed;
    },
    answered: () =>
      answering === 0
        ? Promise.resolve()
        : new Promise<void>((resolve) => {
            whenAnswered.push(resolve);
          }),
  };
}
