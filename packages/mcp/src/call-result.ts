import type { ToolResult } from '@agent-tools/core';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';

/**
 * A registry result as an MCP tools/call result: text and image parts in order, the error flag as `isError` (an
 * error the model can act on is a result, never a JSON-RPC error), and the tool's structured data as
 * `structuredContent` when it is a JSON object and the server was not told to leave it out.
 */
export function callResult(result: ToolResult, structured: boolean): CallToolResult {
  const content = result.content.map((part) =>
    part.type === 'text'
      ? { type: 'text' as const, text: part.text }
      : { type: 'image' as const, data: part.data, mimeType: part.mimeType },
  );
  const data = result.structured;
  const object = structured && typeof data === 'object' && data !== null && !Array.isArray(data);
  return {
    content,
    ...(result.isError ? { isError: true } : {}),
    ...(object ? { structuredContent: JSON.parse(JSON.stringify(data)) as Record<string, unknown> } : {}),
  };
}
