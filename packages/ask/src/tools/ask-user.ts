import { defineTool, errorResult, textResult, type ToolResult } from '@agent-tools/core';
import { z } from 'zod';
import { CARD_LIMITS, cardProblems, type QuestionCard, type QuestionPort, type TargetSpace } from '../card.js';
import { type AskOutcome, askCard } from '../desk.js';
import { outcomeText } from '../wording.js';

/** The parameters of `ask_user`. Card rules (unique labels, something answerable) are checked per field. */
export const askUserParameters = z
  .object({
    question: z.string().max(CARD_LIMITS.question).describe('The one question you want answered, written for a person.'),
    context: z
      .string()
      .max(CARD_LIMITS.context)
      .optional()
      .describe('Why you ask and what depends on the answer, so the user can answer without reading the conversation.'),
    options: z
      .array(
        z.strictObject({
          label: z.string().max(CARD_LIMITS.label).describe('A short, unique label; it is what you get back.'),
          description: z.string().max(CARD_LIMITS.description).optional().describe('One line on what this choice means.'),
        }),
      )
      .max(CARD_LIMITS.options)
      .optional()
      .describe('The choices, shown numbered; put the one you recommend first. Omit for an open question.'),
    allow_free_text: z
      .boolean()
      .optional()
      .describe('Whether the user may type an answer of their own. Default: true with no options, false with options.'),
    multi_select: z.boolean().default(false).describe('Whether several options may be chosen.'),
  })
  .superRefine((value, ctx) => {
    for (const [path, message] of cardProblems(cardOf(value))) ctx.addIssue({ code: 'custom', path, message });
  });

/** The validated arguments of `ask_user`. */
export type AskUserParameters = z.output<typeof askUserParameters>;

/** What the structured part of an `ask_user` result holds, for harness UIs and tests. */
export type AskUserStructured =
  | { readonly outcome: 'answered'; readonly selected: readonly string[]; readonly text?: string }
  | { readonly outcome: Exclude<AskOutcome['type'], 'answered'> };

const DESCRIPTION = `Ask the user (the human operating this run) a question and wait for the answer. This is the only way to ask the user anything: never write a question in a chat message, which ends your turn.

Ask when a decision depends on something only the user knows (a preference, a missing requirement, a choice between approaches with real trade-offs), not for what you can find out by reading the code or running tools. One question per call; several calls are shown one at a time.

Give options when you can: each a short unique label plus an optional description, your recommendation first. Set multi_select when several may apply, and allow_free_text when a typed answer makes sense (it is the default for a question without options). Put what depends on the answer in context.

The result names the chosen label(s) and any typed text. If the user skips, the call succeeds and you proceed on a clearly stated assumption (say what you assumed) without asking again. If nobody answers in time, or no human is attached, the call fails with the same instruction.`;

/** Dependencies of the `ask_user` tool. */
export interface AskUserDeps {
  readonly port: QuestionPort;
  readonly target: TargetSpace;
  /** How long a shown card waits for an answer. */
  readonly timeoutMs: number;
}

/** Builds `ask_user` over a question port and a target space. */
export function askUserTool(deps: AskUserDeps) {
  return defineTool({
    name: 'ask_user',
    tier: 'read',
    description: DESCRIPTION,
    parameters: askUserParameters,
    parallelSafe: true,
    // The card's own timeout governs (counted from when it is shown, not while queued behind another card).
    timeoutMs: Number.POSITIVE_INFINITY,
    async execute(params, ctx): Promise<ToolResult<AskUserStructured>> {
      const outcome = await askCard(deps.port, cardOf(params), {
        target: deps.target,
        signal: ctx.signal,
        timeoutMs: deps.timeoutMs,
        ...(ctx.conversationId === undefined ? {} : { conversationId: ctx.conversationId }),
      });
      const { text, isError } = outcomeText(outcome, deps.timeoutMs);
      const structured: AskUserStructured =
        outcome.type === 'answered'
          ? { outcome: 'answered', selected: outcome.selected, ...(outcome.text === undefined ? {} : { text: outcome.text }) }
          : { outcome: outcome.type };
      return isError ? errorResult(text, structured) : textResult(text, structured);
    },
  });
}

function cardOf(params: {
  question: string;
  context?: string | undefined;
  options?: readonly { label: string; description?: string | undefined }[] | undefined;
  allow_free_text?: boolean | undefined;
  multi_select?: boolean | undefined;
}): QuestionCard {
  const options = (params.options ?? []).map((o) => ({
    label: o.label.trim(),
    ...(o.description?.trim() ? { description: o.description.trim() } : {}),
  }));
  const context = params.context?.trim();
  return {
    kind: 'question',
    question: params.question.trim(),
    ...(context ? { context } : {}),
    options,
    allowFreeText: params.allow_free_text ?? options.length === 0,
    multiSelect: params.multi_select ?? false,
  };
}
