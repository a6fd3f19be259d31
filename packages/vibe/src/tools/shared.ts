import { z } from 'zod';

/** The `worker_id` parameter every tool but spawn and list takes. */
export const workerIdParameter = z
  .string()
  .trim()
  .min(1)
  .describe('The worker\'s id from vibe_spawn or vibe_list ("w1"); its exact label also works.');

/**
 * Refuses text that starts with "-" (as `.refine(...notAnOption)`): the process runner passes a brief, a message or
 * a label to the agent's command line as an argument of its own, where most CLIs read it as an option
 * (`--dangerously-skip-permissions` would free a plan-mode worker).
 */
export const notAnOption = [
  (text: string): boolean => !text.startsWith('-'),
  { message: 'starts with "-", which a worker\'s command line would read as an option; begin with a word' },
] as const;
