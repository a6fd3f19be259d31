import { formatDuration } from '@agent-tools/core/internal';
import type { CardQuestion, QuestionAnswer } from './card.js';
import type { AskOutcome } from './desk.js';

/** What the model is told to do whenever no answer came: the same words for a skip, a timeout and no human. */
export const PROCEED_ON_ASSUMPTION =
  'Proceed on a clearly stated assumption: choose what seems most reasonable, say in your next message what you assumed and why, and do not ask this question again.';

/** The same instruction for several questions of one card. */
export const PROCEED_ON_ASSUMPTIONS =
  'Proceed on clearly stated assumptions: choose what seems most reasonable for each question, say in your next message what you assumed and why, and do not ask these questions again.';

/** What a person did with one question: `chose "SQLite"`, `chose 2 options: "A", "B" and wrote: "…"`, `wrote: "…"`. */
function choiceText(selected: readonly string[], text: string | undefined): string {
  const chosen = selected.map((label) => JSON.stringify(label)).join(', ');
  const typed = text === undefined ? '' : `wrote: ${JSON.stringify(text)}`;
  if (selected.length === 0) return typed;
  const choice = selected.length === 1 ? `chose ${chosen}` : `chose ${selected.length} options: ${chosen}`;
  return typed ? `${choice} and ${typed}` : choice;
}

/** The sentence a model reads for an answer: the chosen labels as the card spells them, and the typed text. */
export function answerSentence(selected: readonly string[], text: string | undefined): string {
  return `The user ${choiceText(selected, text)}.`;
}

/**
 * The instruction for questions that went unanswered: proceed on stated assumptions, and where the model had
 * recommended an option, that it should assume that one. `numbers` names the questions on a card of several.
 */
export function assumptionInstruction(questions: readonly CardQuestion[], numbers?: readonly number[]): string {
  const base = questions.length === 1 ? PROCEED_ON_ASSUMPTION : PROCEED_ON_ASSUMPTIONS;
  const recommended = questions.flatMap((q, i) => (q.recommended ? [[q.recommended, numbers?.[i]] as const] : []));
  if (recommended.length === 0) return base;
  if (questions.length === 1) return `${base} You recommended ${JSON.stringify(recommended[0]?.[0])}: assume it unless you have a reason not to.`;
  const list = recommended.map(([label, n]) => `${n === undefined ? '' : `${n}. `}${JSON.stringify(label)}`).join(', ');
  return `${base} Where you recommended an option, assume it unless you have a reason not to (${list}).`;
}

/** A question as a numbered line of a card's answer: `2. [Auth] How do users sign in?` */
function questionLine(question: CardQuestion, index: number): string {
  return `${index + 1}. ${question.header ? `[${question.header}] ` : ''}${question.question}`;
}

/** The answer of a card of several questions: one line per question, then what to do about the skipped ones. */
function answersText(questions: readonly CardQuestion[], answers: readonly QuestionAnswer[]): string {
  const skipped = answers.flatMap((a, i) => (a.type === 'skipped' ? [i] : []));
  const answered = questions.length - skipped.length;
  const head =
    skipped.length === 0
      ? `The user answered all ${questions.length} questions on the card:`
      : `The user answered ${answered} of ${questions.length} questions on the card:`;
  const lines = answers.map((answer, i) => {
    const question = questions[i] as CardQuestion;
    return `${questionLine(question, i)} → ${answer.type === 'skipped' ? 'skipped' : choiceText(answer.selected, answer.text)}.`;
  });
  if (skipped.length > 0) {
    const which = skipped.map((i) => i + 1);
    const named = which.length === 1 ? `question ${which[0]}` : `questions ${which.slice(0, -1).join(', ')} and ${which.at(-1)}`;
    const instruction = assumptionInstruction(
      skipped.map((i) => questions[i] as CardQuestion),
      which,
    );
    lines.push(`For the skipped ${named}: ${instruction}`);
  }
  return [head, ...lines].join('\n');
}

/** The wording of every outcome of `ask_user`, and whether it is an error. */
export function outcomeText(
  outcome: AskOutcome,
  timeoutMs: number,
  questions: readonly CardQuestion[],
): { readonly text: string; readonly isError: boolean } {
  const one = questions.length === 1;
  const instruction = assumptionInstruction(questions, questions.map((_, i) => i + 1));
  const these = one ? 'this question' : `these ${questions.length} questions`;
  switch (outcome.type) {
    case 'answered':
      if (outcome.answers) return { text: answersText(questions, outcome.answers), isError: false };
      return { text: answerSentence(outcome.selected, outcome.text), isError: false };
    case 'skipped':
      return { text: `The user skipped ${these} without answering. ${instruction}`, isError: false };
    case 'timed_out':
      return {
        text: `Nobody answered within ${formatDuration(timeoutMs)}, so ${one ? 'the question' : `the ${questions.length} questions`} timed out. ${instruction}`,
        isError: true,
      };
    case 'unavailable':
      return {
        text: `The ${one ? 'question' : 'questions'} could not reach a human (${outcome.reason ?? 'no human is attached'}), so nobody answered ${one ? 'it' : 'them'}: questions fail closed rather than wait for nobody. ${instruction} Do not call ask_user again in this run.`,
        isError: true,
      };
    case 'failed':
      return { text: `The ${one ? 'question' : 'questions'} could not be asked: ${outcome.reason.replace(/\.$/, '')}. ${instruction}`, isError: true };
    case 'withdrawn':
      return { text: `The ${one ? 'question was' : 'questions were'} withdrawn because the call was cancelled.`, isError: true };
  }
}
