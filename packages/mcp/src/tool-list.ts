import { type AnyToolDefinition, toolSchema } from '@agent-tools/core';
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { tierAnnotations, toolTitle } from './annotations.js';

/**
 * A registry tool as an MCP tool: the same name, description and JSON Schema the registry hands any model API,
 * with a title and the annotations of its tier. No output schema is declared: a tool's structured data is for
 * programs and varies by outcome, and an MCP client rejects a result whose structured content does not match a
 * declared schema.
 */
export function mcpTool(tool: AnyToolDefinition, titles?: Readonly<Record<string, string>>): Tool {
  const schema = toolSchema(tool);
  const title = toolTitle(tool, titles);
  return {
    name: schema.name,
    title,
    description: schema.description,
    inputSchema: schema.inputSchema as Tool['inputSchema'],
    annotations: tierAnnotations(tool.tier, title),
  };
}
