import { type CardOutcome, type CardQuestion, cardQuestions, type QuestionAnswer, type QuestionCard } from '@agent-tools/ask';
import type { ElicitRequestFormParams, ElicitResult } from '@modelcontextprotocol/sdk/types.js';

type RequestedSchema = ElicitRequestFormParams['requestedSchema'];
type Property = RequestedSchema['properties'][string];

/** The field of question `i` (options or typed text), and of its typed answer beside options. */
const choiceKey = (i: number): string => `q${i + 1}`;
const textKey = (i: number): string => `q${i + 1}_text`;

/**
 * A question card as an MCP form (elicitation form mode). Each question becomes one field: options as an enum (an
 * array of enums when several may be chosen), free text as a string, and both when a question takes options and a
 * typed answer. Every field is optional, so the human can skip any question by leaving it empty; declining or
 * cancelling the form skips them all.
 */
export function elicitationForm(card: QuestionCard): ElicitRequestFormParams {
  const questions = cardQuestions(card);
  const properties: Record<string, Property> = {};
  questions.forEach((question, i) => {
    const title = question.header ? `${question.header}: ${question.question}` : question.question;
    const described = optionLines(question);
    if (question.options.length > 0) {
      const labels = question.options.map((option) => option.label);
      properties[choiceKey(i)] = question.multiSelect
        ? { type: 'array', title, ...described, items: { type: 'string', enum: labels } }
        : { type: 'string', title, ...described, enum: labels };
      if (question.allowFreeText) {
        properties[textKey(i)] = {
          type: 'string',
          title: questions.length === 1 ? 'Or type an answer' : `Or type an answer to question ${i + 1}`,
        };
      }
    } else {
      properties[choiceKey(i)] = { type: 'string', title };
    }
  });
  const skip =
    questions.length === 1 ? 'Leave it empty, or decline, to skip it.' : 'Leave a question empty to skip it; decline to skip them all.';
  const head = questions.length === 1 ? (questions[0] as CardQuestion).question : `${questions.length} questions:`;
  const message = [head, card.context, skip].filter(Boolean).join('\n\n');
  return { mode: 'form', message, requestedSchema: { type: 'object', properties } };
}

/** The options of a question as a description: what each means, and the one recommended. */
function optionLines(question: CardQuestion): { description?: string } {
  const lines = question.options.filter((o) => o.description).map((o) => `${o.label}: ${o.description}`);
  if (question.recommended) lines.push(`Recommended: ${question.recommended}.`);
  return lines.length > 0 ? { description: lines.join('\n') } : {};
}

/**
 * How a card ended, from the client's answer to its form. `decline` and `cancel` are skips: the human chose not to
 * answer, so the model proceeds on a stated assumption, as for a skip at a terminal.
 */
export function formOutcome(card: QuestionCard, result: ElicitResult): CardOutcome {
  if (result.action !== 'accept') return { type: 'skipped' };
  const content = result.content ?? {};
  const questions = cardQuestions(card);
  const answers = questions.map((question, i): QuestionAnswer => answerOf(question, content[choiceKey(i)], content[textKey(i)]));
  if (card.questions && card.questions.length > 0) {
    return answers.every((a) => a.type === 'skipped') ? { type: 'skipped' } : { type: 'answered', answers };
  }
  const [only] = answers;
  if (!only || only.type === 'skipped') return { type: 'skipped' };
  return { type: 'answered', selected: only.selected, ...(only.text === undefined ? {} : { text: only.text }) };
}

function answerOf(question: CardQuestion, choice: unknown, typed: unknown): QuestionAnswer {
  const text = (question.options.length === 0 ? choice : typed) as unknown;
  const typedText = typeof text === 'string' && text.trim() ? text.trim() : undefined;
  let selected: string[] = [];
  if (question.options.length > 0) {
    if (Array.isArray(choice)) selected = choice.filter((c): c is string => typeof c === 'string');
    else if (typeof choice === 'string' && choice !== '') selected = [choice];
  }
  if (selected.length === 0 && typedText === undefined) return { type: 'skipped' };
  return { type: 'answered', selected, ...(typedText === undefined ? {} : { text: typedText }) };
}
