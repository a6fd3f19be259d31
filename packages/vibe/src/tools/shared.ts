import { errorResult, type ToolResult } from '@agent-tools/core';
import { z } from 'zod';
import { VibeError } from '../errors.js';

/** The `worker_id` parameter every tool but spawn and list takes. */
export const workerIdParameter = z
  .string()
  .trim()
  .min(1)
  .describe('The worker\'s id from vibe_spawn or vibe_list ("w1"); its exact label also works.');

/** Turns a {@link VibeError} (unknown worker, limit, disposed) into the error result the model reads. */
export function vibeErrorResult(error: unknown): ToolResult {
  if (error instanceof VibeError) return errorResult(error.message, { code: error.code });
  throw error;
}
