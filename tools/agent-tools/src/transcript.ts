import type { ToolResult } from '@agent-tools/core';
import { formatResult } from './output.js';

/**
 * One answer of the plain (non-JSON) REPL: a header naming the call and whether it failed, then its text, with a
 * blank line before every answer but the first. Without it the answers of a piped session run together, and a human
 * reading the transcript cannot tell where one ends.
 */
export function replAnswer(tool: string, result: ToolResult, index: number): string {
  const header = `── ${tool}${result.isError ? ' (error)' : ''} ──`;
  return `${index > 0 ? '\n' : ''}${header}\n${formatResult(result)}`;
}
