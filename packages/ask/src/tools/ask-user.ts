import { defineTool, errorResult, type ToolResult, textResult } from '@agent-tools/core';
import { type Assumption, recordAssumptions, type UnansweredReason } from '../assumptions.js';
import { type CardQuestion, cardQuestions, type QuestionPort, type TargetSpace } from '../card.js';
import { type AskOutcome, askCard } from '../desk.js';
import { assumptionInstruction, outcomeText } from '../wording.js';
import { askUserParameters, cardOf } from './ask-user-parameters.js';

export { type AskUserParameters, askUserParameters } from './ask-user-parameters.js';

/** One question's answer in the structured result of a card of several questions. */
export type AskUserAnswer = { readonly question: string; readonly header?: string } & (
  | { readonly outcome: 'answered'; readonly selected: readonly string[]; readonly text?: string }
  | { readonly outcome: 'skipped' }
);

/**
 * What the structured part of an `ask_user` result holds, for harness UIs and tests: the outcome (with `answers`,
 * one per question, for a card of several), and the `assumptions` this call added to the run's ledger.
 */
export type AskUserStructured = (
  | { readonly outcome: 'answered'; readonly selected: readonly string[]; readonly text?: string }
  | { readonly outcome: 'answered'; readonly answers: readonly AskUserAnswer[] }
  | { readonly outcome: Exclude<AskOutcome['type'], 'answered'> }
) & { readonly assumptions?: readonly Assumption[] };

const DESCRIPTION = `Ask the user (the human operating this run) a question and wait for the answer. This is the only way to ask the user anything: never write a question in a chat message, which ends your turn.

Ask when a decision depends on something only the user knows (a preference, a missing requirement, a choice between approaches with real trade-offs), not for what you can find out by reading the code or running tools. Ask one question with question, or up to 4 related ones at once with questions (each with its own options, header, multi_select, allow_free_text and recommended): they are shown on one card and answered together. Separate calls are shown one card at a time.

Give options when you can: each a short unique label plus an optional description, your recommendation first, and name it in recommended. Set multi_select when several may apply, and allow_free_text when a typed answer makes sense (it is the default for a question without options). Put what depends on the answer in context.

The result names the chosen label(s) and any typed text, per question. If the user skips, the call succeeds and you proceed on a clearly stated assumption (say what you assumed; your recommended option where you gave one) without asking again. If nobody answers in time, or no human is attached, the call fails with the same instruction.`;

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
      const card = cardOf(params);
      const questions = cardQuestions(card);
      const outcome = await askCard(deps.port, card, {
        target: deps.target,
        signal: ctx.signal,
        timeoutMs: deps.timeoutMs,
        ...(ctx.conversationId === undefined ? {} : { conversationId: ctx.conversationId }),
        onPortError: (error) => ctx.reportError(error),
      });
      const { text, isError } = outcomeText(outcome, deps.timeoutMs, questions);
      const assumptions = unanswered(outcome, questions).map(
        ([question, reason]): Assumption => ({
          question: question.question,
          ...(question.header ? { header: question.header } : {}),
          reason,
          ...(question.recommended ? { assumed: question.recommended } : {}),
          instruction: assumptionInstruction([question]),
          at: Date.now(),
          runId: ctx.runId,
          ...(ctx.conversationId === undefined ? {} : { conversationId: ctx.conversationId }),
          target: deps.target.id,
        }),
      );
      recordAssumptions(deps.port, assumptions);
      const structured: AskUserStructured = {
        ...structuredOutcome(outcome, questions),
        ...(assumptions.length > 0 ? { assumptions } : {}),
      };
      return isError ? errorResult(text, structured) : textResult(text, structured);
    },
  });
}

/** The questions that went unanswered, and why: the model proceeds on an assumption for each. */
function unanswered(outcome: AskOutcome, questions: readonly CardQuestion[]): [CardQuestion, UnansweredReason][] {
  switch (outcome.type) {
    case 'answered':
      return (outcome.answers ?? []).flatMap((answer, i) => (answer.type === 'skipped' ? [[questions[i] as CardQuestion, 'skipped']] : []));
    case 'withdrawn':
      return [];
    default:
      return questions.map((question) => [question, outcome.type]);
  }
}

function structuredOutcome(outcome: AskOutcome, questions: readonly CardQuestion[]): AskUserStructured {
  if (outcome.type !== 'answered') return { outcome: outcome.type };
  if (!outcome.answers) {
    return { outcome: 'answered', selected: outcome.selected, ...(outcome.text === undefined ? {} : { text: outcome.text }) };
  }
  const answers = outcome.answers.map((answer, i): AskUserAnswer => {
    const question = questions[i] as CardQuestion;
    const head = { question: question.question, ...(question.header ? { header: question.header } : {}) };
    if (answer.type === 'skipped') return { ...head, outcome: 'skipped' };
    return { ...head, outcome: 'answered', selected: answer.selected, ...(answer.text === undefined ? {} : { text: answer.text }) };
  });
  return { outcome: 'answered', answers };
}
