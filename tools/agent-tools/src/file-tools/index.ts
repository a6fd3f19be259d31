import type { AnyToolDefinition } from '@agent-tools/core';
import { editTool } from './edit.js';
import { readTool } from './read.js';
import { writeTool } from './write.js';

/** The harness's own file tools; write and edit go through core's write wrapper. */
export function fileTools(cwd: string): AnyToolDefinition[] {
  return [readTool(cwd), writeTool(cwd), editTool(cwd)];
}
