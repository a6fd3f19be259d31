/**
 * Where every unexpected throw of the packages ends in this harness (the registry's, the worker list's, the
 * permission card's and the MCP session's `onError`): standard error when AGENT_TOOLS_DEBUG is set. The model has
 * its error result either way.
 */
export function logBug(error: unknown, where: string): void {
  if (process.env['AGENT_TOOLS_DEBUG']) console.error(`[agent-tools] ${where}`, error);
}
