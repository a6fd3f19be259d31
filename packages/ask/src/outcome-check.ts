import { capText } from '@agent-tools/core/internal';
import { type CardOutcome, type CardQuestion, cardQuestions, type QuestionAnswer, type QuestionCard } from './card.js';
import { AskError } from './errors.js';

/** The outcomes a port may resolve with, as the error for a malformed one spells them out. */
const SHAPES =
  'A port resolves with { type: "answered", selected, text? } (for a card of several questions { type: "answered", answers: [one per question] }), { type: "skipped" }, { type: "timed_out" } or { type: "unavailable", reason? }.';

/**
 * Checks what a port answered against the card, so a buggy UI can neither crash the call nor tell the model the
 * human chose something that was never offered. A malformed answer (no `type`, a label the question does not
 * have, one answer for a card of three questions) throws {@link AskError} `invalid_answer` naming the port's
 * mistake. Labels are matched case-insensitively and returned as the card spells them. A card of one question
 * comes back as `selected`/`text`; a card of several as `answers`, or `skipped` when every question was skipped.
 */
export function checkOutcome(card: QuestionCard, outcome: unknown): CardOutcome {
  if (!isRecord(outcome)) throw portMistake(`answered ${shown(outcome)}, which is not an outcome object`, true);
  switch (outcome['type']) {
    case 'skipped':
    case 'timed_out':
      return { type: outcome['type'] };
    case 'unavailable': {
      const reason = outcome['reason'];
      if (reason !== undefined && typeof reason !== 'string') throw portMistake(`gave a reason that is not text (${shown(reason)})`);
      return reason?.trim() ? { type: 'unavailable', reason: reason.trim() } : { type: 'unavailable' };
    }
    case 'answered':
      return checkAnswered(card, outcome);
    case undefined:
      throw portMistake(`answered ${shown(outcome)}, which has no \`type\``, true);
    default:
      throw portMistake(`answered with type ${shown(outcome['type'])}, which is not an outcome`, true);
  }
}

function checkAnswered(card: QuestionCard, outcome: Readonly<Record<string, unknown>>): CardOutcome {
  const questions = cardQuestions(card);
  const several = questions.length > 1;
  let answers: QuestionAnswer[];
  if (outcome['answers'] !== undefined) {
    const given = outcome['answers'];
    if (!Array.isArray(given)) throw portMistake(`gave \`answers\` that is not a list (${shown(given)})`);
    if (given.length !== questions.length) {
      throw portMistake(`gave ${given.length} answer(s) for a card of ${questions.length} question(s); give one per question, in order`, true);
    }
    answers = given.map((answer, i) => checkAnswer(questions[i] as CardQuestion, answer, several ? i : undefined));
  } else if (several) {
    throw portMistake(`answered a card of ${questions.length} questions with one answer; give \`answers\`, one per question, in order`, true);
  } else {
    answers = [checkAnswer(questions[0] as CardQuestion, { ...outcome, type: 'answered' }, undefined)];
  }
  if (answers.every((a) => a.type === 'skipped')) return { type: 'skipped' };
  if (!several) {
    const [only] = answers as [{ type: 'answered'; selected: readonly string[]; text?: string }];
    return only.text === undefined ? { type: 'answered', selected: only.selected } : { type: 'answered', selected: only.selected, text: only.text };
  }
  return { type: 'answered', answers };
}

function checkAnswer(question: CardQuestion, answer: unknown, index: number | undefined): QuestionAnswer {
  const where = index === undefined ? '' : `for question ${index + 1} (${shown(question.question, 60)}) `;
  if (!isRecord(answer)) throw portMistake(`${where}answered ${shown(answer)}, which is not an answer object`, true);
  if (answer['type'] === 'skipped') return { type: 'skipped' };
  if (answer['type'] !== 'answered') {
    throw portMistake(`${where}answered with type ${shown(answer['type'])}; an answer is { type: "answered", selected, text? } or { type: "skipped" }`);
  }
  const chosen = answer['selected'] ?? [];
  if (!Array.isArray(chosen) || chosen.some((label) => typeof label !== 'string')) {
    throw portMistake(`${where}gave \`selected\` that is not a list of labels (${shown(chosen)})`);
  }
  const rawText = answer['text'];
  if (rawText !== undefined && typeof rawText !== 'string') throw portMistake(`${where}gave \`text\` that is not text (${shown(rawText)})`);
  const selected: string[] = [];
  for (const label of chosen as string[]) {
    const option = question.options.find((o) => o.label.toLowerCase() === label.trim().toLowerCase());
    if (!option) throw portMistake(`${where}answered "${label}", which is not an option of the card`);
    if (!selected.includes(option.label)) selected.push(option.label);
  }
  const text = rawText?.trim() ? rawText.trim() : undefined;
  if (text !== undefined && !question.allowFreeText) throw portMistake(`${where}answered with typed text, which the card does not accept`);
  if (selected.length > 1 && !question.multiSelect) throw portMistake(`${where}chose ${selected.length} options on a single-choice card`);
  if (selected.length === 0 && text === undefined) throw portMistake(`${where}answered with neither an option nor text`);
  return text === undefined ? { type: 'answered', selected } : { type: 'answered', selected, text };
}

/** The error for a port's mistake; `shape` adds what a well-formed outcome looks like. */
function portMistake(what: string, shape = false): AskError {
  return new AskError('invalid_answer', `The question port ${what}.${shape ? ` ${SHAPES}` : ''} This is a bug in the harness's question port.`);
}

function isRecord(value: unknown): value is Readonly<Record<string, unknown>> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A value as the error quotes it: JSON, capped, and never throwing (cycles, BigInt). */
function shown(value: unknown, max = 200): string {
  let text: string;
  try {
    text = value === undefined ? 'undefined' : (JSON.stringify(value) ?? String(value));
  } catch {
    // JSON.stringify throws only on a cycle or a BigInt: String() still describes the value.
    text = String(value);
  }
  return capText(text, max);
}
