import type { Surface } from '@agent-tools/core';
import type { McpSessionContext } from '@agent-tools/mcp';
import { assemble } from '../assemble.js';

/** What every session of the harness's MCP server is assembled with. */
export interface SessionSetup {
  readonly surface: Surface;
  readonly fileTools: boolean;
}

/**
 * Assembles the harness's registry for one MCP session in a working directory: every package this machine has
 * resources for, questions and `elicit` approvals through the client, and read/write/edit only with --file-tools.
 */
export function sessionRegistry(setup: SessionSetup, cwd: string, session: McpSessionContext) {
  return assemble({
    cwd,
    conversationId: session.sessionId ?? undefined,
    surface: setup.surface,
    approve: session.approve,
    questions: { port: session.questionPort, target: session.targetSpace },
    fileTools: setup.fileTools,
  });
}
