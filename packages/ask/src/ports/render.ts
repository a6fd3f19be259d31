import { formatDuration } from '@agent-tools/core/internal';
import { type CardOutcome, type CardQuestion, cardQuestions, type QuestionAnswer, type QuestionCard } from '../card.js';
import { PERMISSION_LABELS } from '../permission.js';

/** The prompt a terminal shows while a card waits for a line (for a card of several, the question's number). */
export function promptFor(card: QuestionCard, index?: number): string {
  if (card.kind === 'permission') return 'Allow? ';
  const count = cardQuestions(card).length;
  return index === undefined || count === 1 ? 'answer> ' : `${index + 1}/${count} answer> `;
}

/**
 * Letters a terminal user types at a permission prompt out of habit: y(es) allows once, a(lways) allows for the
 * run, n(o) denies. Matched to the card's own labels, so a permission card with other options gets no shortcuts.
 */
const PERMISSION_SHORTCUTS: Readonly<Record<string, string>> = {
  y: PERMISSION_LABELS.once,
  yes: PERMISSION_LABELS.once,
  a: PERMISSION_LABELS.run,
  always: PERMISSION_LABELS.run,
  n: PERMISSION_LABELS.deny,
  no: PERMISSION_LABELS.deny,
};

/** Words that skip: `/skip` always, and `s` / `skip` where no typed answer is accepted. */
function isSkip(question: CardQuestion, text: string): boolean {
  const word = text.toLowerCase();
  return word === '/skip' || (!question.allowFreeText && (word === 's' || word === 'skip'));
}

/** The words that skip the rest of a card of several questions. */
function isSkipAll(text: string): boolean {
  return /^\/skip\s+all$/i.test(text);
}

/** A card as a terminal shows it: a header, the question(s) with numbered options, its context, and how to answer. */
export function renderCard(card: QuestionCard, timeoutMs: number): string {
  const questions = cardQuestions(card);
  const several = questions.length > 1;
  const title = several ? `${questions.length} questions` : card.kind;
  const lines = ['', `── ${title} ${'─'.repeat(Math.max(4, 46 - title.length))}`];
  if (!several) {
    const [only] = questions as [CardQuestion];
    lines.push(`${tag(only)}${only.question}`);
    if (card.context) lines.push(...indented(card.context));
    lines.push(...optionLines(only));
    lines.push('', `${howToAnswer(card.kind, only, false)}${timesOut(timeoutMs)}`);
    return `${lines.join('\n')}\n`;
  }
  if (card.context) lines.push(...indented(card.context));
  questions.forEach((question, i) => {
    lines.push('', `${i + 1}/${questions.length} ${tag(question)}${question.question}`, ...optionLines(question));
    lines.push(`  ${howToAnswer(card.kind, question, true)}`);
  });
  lines.push('', `Answer each question in turn; "/skip all" skips the rest.${timesOut(timeoutMs)}`);
  return `${lines.join('\n')}\n`;
}

/** " Times out in 10 min." ('' for a card without a time limit). */
function timesOut(timeoutMs: number): string {
  return Number.isFinite(timeoutMs) ? ` Times out in ${formatDuration(timeoutMs)}.` : '';
}

function tag(question: CardQuestion): string {
  return question.header ? `[${question.header}] ` : '';
}

function indented(text: string): string[] {
  return text.split('\n').map((line) => `  ${line}`);
}

function optionLines(question: CardQuestion): string[] {
  if (question.options.length === 0) return [];
  const shown = question.options.map((o) => (o.label === question.recommended ? `${o.label} (recommended)` : o.label));
  const width = Math.max(...shown.map((label) => label.length));
  return [
    '',
    ...question.options.map((option, index) => {
      const label = option.description ? (shown[index] as string).padEnd(width) : (shown[index] as string);
      return `  ${index + 1}) ${label}${option.description ? `   ${option.description}` : ''}`;
    }),
  ];
}

function howToAnswer(kind: QuestionCard['kind'], question: CardQuestion, several: boolean): string {
  const what = several ? ' this question' : '';
  const skip =
    kind === 'permission' ? '"/skip" refuses.' : question.allowFreeText ? `"/skip" skips${what}.` : `"s" skips${what}.`;
  if (question.options.length === 0) return `Type your answer; ${skip}`;
  const pick = question.multiSelect
    ? 'Pick one or more numbers (like 1,3)'
    : kind === 'permission'
      ? 'Pick a number (or y, a, n)'
      : 'Pick a number';
  const typed = question.allowFreeText ? (kind === 'permission' ? ', or type a reason to deny' : ', or type your own answer') : '';
  return `${pick}${typed}; ${skip}`;
}

/** What a typed line means for a card: an outcome, or a sentence asking for another try. */
export type ParsedLine = { readonly outcome: CardOutcome } | { readonly retry: string };

/** What a typed line means for one question of a card of several: its answer, the rest skipped, or a retry. */
export type ParsedAnswer = { readonly answer: QuestionAnswer } | { readonly skipAll: true } | { readonly retry: string };

/**
 * Reads one typed line against a card of one question: `/skip`; numbers (several, comma- or space-separated, on a
 * multi-select card); an option's label typed out; or free text where the card accepts it. A number out of range on
 * a card that accepts text is taken as text ("5" answering "how many retries?").
 */
export function parseLine(card: QuestionCard, line: string): ParsedLine {
  const parsed = parseAnswer(card.kind, cardQuestions(card)[0] as CardQuestion, line, false);
  if ('retry' in parsed) return parsed;
  if ('skipAll' in parsed || parsed.answer.type === 'skipped') return { outcome: { type: 'skipped' } };
  const { selected, text } = parsed.answer;
  return { outcome: text === undefined ? { type: 'answered', selected } : { type: 'answered', selected, text } };
}

/** Reads one typed line against one question; on a card of several, `/skip all` skips the rest of the card. */
export function parseAnswer(kind: QuestionCard['kind'], question: CardQuestion, line: string, several: boolean): ParsedAnswer {
  const text = line.trim();
  if (!text) return { retry: howToAnswer(kind, question, several) };
  if (several && isSkipAll(text)) return { skipAll: true };
  if (isSkip(question, text)) return { answer: { type: 'skipped' } };
  const count = question.options.length;
  if (count > 0 && /^\d+(\s*[,\s]\s*\d+)*$/.test(text)) {
    const numbers = [...new Set(text.split(/[\s,]+/).map(Number))];
    const outside = numbers.filter((n) => n < 1 || n > count);
    if (outside.length === 0) {
      if (numbers.length > 1 && !question.multiSelect) return { retry: `Pick just one number, from 1 to ${count}.` };
      return { answer: { type: 'answered', selected: numbers.map((n) => question.options[n - 1]?.label as string) } };
    }
    if (!question.allowFreeText) return { retry: `There is no option ${outside.join(', ')}; pick from 1 to ${count}.` };
  }
  const shortcut = kind === 'permission' ? PERMISSION_SHORTCUTS[text.toLowerCase()] : undefined;
  const option = question.options.find((o) => o.label.toLowerCase() === (shortcut ?? text).toLowerCase());
  if (option) return { answer: { type: 'answered', selected: [option.label] } };
  if (question.allowFreeText) return { answer: { type: 'answered', selected: [], text } };
  return { retry: `Please answer with a number from 1 to ${count}${question.multiSelect ? ' (several separated by commas)' : ''}, or "s" to skip.` };
}

/** The line echoed after an answer, so the human sees what was taken. */
export function renderOutcome(outcome: CardOutcome | QuestionAnswer): string {
  if (outcome.type === 'skipped') return '→ skipped\n';
  if (outcome.type !== 'answered' || outcome.selected === undefined) return '';
  const parts = [...outcome.selected, ...(outcome.text === undefined ? [] : [JSON.stringify(outcome.text)])];
  return `→ ${parts.join(', ')}\n`;
}
