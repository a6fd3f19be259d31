import { z } from 'zod';
import { CARD_LIMITS, type CardQuestion, cardProblems, type QuestionCard } from '../card.js';

const option = z.strictObject({
  label: z.string().max(CARD_LIMITS.label).describe('A short, unique label; it is what you get back.'),
  description: z.string().max(CARD_LIMITS.description).optional().describe('One line on what this choice means.'),
});

/** The fields of one question, shared by the single form and each entry of `questions`. */
const fields = {
  header: z
    .string()
    .max(CARD_LIMITS.header)
    .optional()
    .describe(`A short tag shown beside the question, at most ${CARD_LIMITS.header} characters ("Database", "Auth").`),
  options: z
    .array(option)
    .max(CARD_LIMITS.options)
    .optional()
    .describe('The choices, shown numbered; put the one you recommend first. Omit for an open question.'),
  allow_free_text: z
    .boolean()
    .optional()
    .describe('Whether the user may type an answer of their own. Default: true with no options, false with options.'),
  multi_select: z.boolean().default(false).describe('Whether several options may be chosen.'),
  recommended: z
    .string()
    .max(CARD_LIMITS.label)
    .optional()
    .describe('The label of the option you recommend: marked on the card, and what you assume if the question goes unanswered.'),
};

const questionText = z.string().max(CARD_LIMITS.question);

/**
 * The parameters of `ask_user`: one question in the top-level fields, or 1 to 4 in `questions`, answered on one card.
 * Card rules (unique labels, something answerable, a recommended option that exists) are checked per field.
 */
export const askUserParameters = z
  .object({
    question: questionText.optional().describe('The one question you want answered, written for a person. Use questions instead to ask several at once.'),
    questions: z
      .array(z.strictObject({ question: questionText.describe('What you want to know, written for a person.'), ...fields }))
      .min(1)
      .max(CARD_LIMITS.questions)
      .optional()
      .describe(`Several related questions (1 to ${CARD_LIMITS.questions}) on one card, each answered on its own; instead of question and its fields.`),
    context: z
      .string()
      .max(CARD_LIMITS.context)
      .optional()
      .describe('Why you ask and what depends on the answer, so the user can answer without reading the conversation.'),
    ...fields,
  })
  .superRefine((value, ctx) => {
    // A list of the wrong length is already reported by its own check; its card cannot be built.
    if (value.questions !== undefined && (value.questions.length === 0 || value.questions.length > CARD_LIMITS.questions)) return;
    if (value.questions !== undefined) {
      const stray = (['question', 'header', 'options', 'allow_free_text', 'recommended'] as const).filter((k) => value[k] !== undefined);
      if (value.multi_select) stray.push('multi_select' as never);
      for (const key of stray) {
        ctx.addIssue({ code: 'custom', path: [key], message: 'with questions, give each question\'s fields inside its entry of questions, not beside them' });
      }
      if (stray.length > 0) return;
    } else if (value.question === undefined) {
      ctx.addIssue({ code: 'custom', path: ['question'], message: 'give the question to ask (or questions, for several on one card)' });
      return;
    }
    for (const [path, message] of cardProblems(cardOf(value))) ctx.addIssue({ code: 'custom', path, message });
  });

/** The validated arguments of `ask_user`. */
export type AskUserParameters = z.output<typeof askUserParameters>;

interface QuestionFields {
  question?: string | undefined;
  header?: string | undefined;
  options?: readonly { label: string; description?: string | undefined }[] | undefined;
  allow_free_text?: boolean | undefined;
  multi_select?: boolean | undefined;
  recommended?: string | undefined;
}

/** The card `ask_user` shows for its arguments: one question, or `questions` with the first repeated in the card's fields. */
export function cardOf(params: QuestionFields & { context?: string | undefined; questions?: readonly QuestionFields[] | undefined }): QuestionCard {
  const context = params.context?.trim();
  const questions = (params.questions ?? [params]).map(questionOf);
  const first = questions[0] as CardQuestion;
  return {
    kind: 'question',
    ...first,
    ...(context ? { context } : {}),
    ...(params.questions ? { questions } : {}),
  };
}

function questionOf(params: QuestionFields): CardQuestion {
  const options = (params.options ?? []).map((o) => ({
    label: o.label.trim(),
    ...(o.description?.trim() ? { description: o.description.trim() } : {}),
  }));
  const header = params.header?.trim();
  const recommended = params.recommended?.trim();
  // The recommended option as the card spells it, whatever case the model used.
  const spelled = options.find((o) => o.label.toLowerCase() === recommended?.toLowerCase())?.label ?? recommended;
  return {
    question: (params.question ?? '').trim(),
    ...(params.header !== undefined ? { header: header ?? '' } : {}),
    options,
    allowFreeText: params.allow_free_text ?? options.length === 0,
    multiSelect: params.multi_select ?? false,
    ...(spelled !== undefined ? { recommended: spelled } : {}),
  };
}
