import { AgentToolsError } from '@agent-tools/core';

/** What went wrong in the MCP server, for programs. */
export type McpServerErrorCode = 'invalid_option' | 'root_refused' | 'session_failed';

/** The error class of @agent-tools/mcp; messages read `[agent-tools/mcp] ...`. */
export class McpServerError extends AgentToolsError<McpServerErrorCode> {
  override readonly name = 'McpServerError';

  constructor(code: McpServerErrorCode, detail: string, options?: { hint?: string; cause?: unknown }) {
    super('mcp', code, detail, options);
  }
}
