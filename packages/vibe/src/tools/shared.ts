import { z } from 'zod';

/** The `worker_id` parameter every tool but spawn and list takes. */
export const workerIdParameter = z
  .string()
  .trim()
  .min(1)
  .describe('The worker\'s id from vibe_spawn or vibe_list ("w1"); its exact label also works.');
