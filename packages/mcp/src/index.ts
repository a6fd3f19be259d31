/**
 * @agent-tools/mcp: an agent-tools registry as an MCP server. One run per MCP session: the session owns its
 * language servers, kernels, debug adapters, workers and question channel, and its end disposes them.
 */

export { tierAnnotations, toolTitle } from './annotations.js';
export { APPROVAL_MODES, type ApprovalMode, approvalFor } from './approval-mode.js';
export { callResult } from './call-result.js';
export { elicitationForm, formOutcome } from './elicitation-form.js';
export { ElicitationPort } from './elicitation-port.js';
export { McpServerError, type McpServerErrorCode } from './errors.js';
export { DEFAULT_IDLE_TIMEOUT_MS, type HttpServerOptions, type McpHttpServer, serveHttp } from './http/http-server.js';
export { type GuardOptions, isLoopback, LOOPBACK_HOSTS, type Refusal, refusal } from './http/request-guard.js';
export { type SessionDirectoryOptions, sessionDirectory } from './roots.js';
export { type McpSession, type McpSessionContext, type RegistrySource, type ServeOptions, serveRegistry } from './session.js';
export { mcpTool } from './tool-list.js';
