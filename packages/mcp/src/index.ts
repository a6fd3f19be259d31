/**
 * @agent-tools/mcp: an agent-tools registry as an MCP server. One run per MCP session: the session owns its
 * language servers, kernels, debug adapters, workers and question channel, and its end disposes them.
 */

export { tierAnnotations } from './annotations.js';
export { APPROVAL_MODES, type ApprovalMode } from './approval-mode.js';
export { callResult } from './call-result.js';
export { elicitationForm, formOutcome } from './elicitation-form.js';
export { ElicitationPort } from './elicitation-port.js';
export type { McpServerErrorCode } from './errors.js';
export { type HttpServerOptions, type McpHttpServer, serveHttp } from './http/http-server.js';
export type { GuardOptions, Refusal } from './http/request-guard.js';
export { type SessionDirectoryOptions, sessionDirectory } from './roots.js';
export { type McpSession, type McpSessionContext, type RegistrySource, type ServeOptions, serveRegistry } from './session.js';
export { mcpTool } from './tool-list.js';
