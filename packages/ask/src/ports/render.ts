import type { CardOutcome, QuestionCard } from '../card.js';
import { PERMISSION_LABELS } from '../permission.js';
import { formatDuration } from '../wording.js';

/** The prompt a terminal shows while a card waits for a line. */
export function promptFor(card: QuestionCard): string {
  return card.kind === 'permission' ? 'Allow? ' : 'answer> ';
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

/** Words that skip a card: `/skip` always, and `s` / `skip` where no typed answer is accepted. */
function isSkip(card: QuestionCard, text: string): boolean {
  const word = text.toLowerCase();
  return word === '/skip' || (!card.allowFreeText && (word === 's' || word === 'skip'));
}

/** A card as a terminal shows it: a header, the question, its context, numbered options, and how to answer. */
export function renderCard(card: QuestionCard, timeoutMs: number): string {
  const lines = ['', `── ${card.kind} ${'─'.repeat(Math.max(4, 46 - card.kind.length))}`, card.question];
  if (card.context) lines.push(...card.context.split('\n').map((line) => `  ${line}`));
  if (card.options.length > 0) {
    lines.push('');
    const width = Math.max(...card.options.map((o) => o.label.length));
    card.options.forEach((option, index) => {
      const label = option.description ? option.label.padEnd(width) : option.label;
      lines.push(`  ${index + 1}) ${label}${option.description ? `   ${option.description}` : ''}`);
    });
  }
  lines.push('', `${howToAnswer(card)} Times out in ${formatDuration(timeoutMs)}.`);
  return `${lines.join('\n')}\n`;
}

function howToAnswer(card: QuestionCard): string {
  const skip = card.kind === 'permission' ? '"/skip" refuses.' : card.allowFreeText ? '"/skip" skips.' : '"s" skips.';
  if (card.options.length === 0) return `Type your answer; ${skip}`;
  const pick = card.multiSelect
    ? 'Pick one or more numbers (like 1,3)'
    : card.kind === 'permission'
      ? 'Pick a number (or y, a, n)'
      : 'Pick a number';
  const typed = card.allowFreeText ? (card.kind === 'permission' ? ', or type a reason to deny' : ', or type your own answer') : '';
  return `${pick}${typed}; ${skip}`;
}

/** What a typed line means for a card: an outcome, or a sentence asking for another try. */
export type ParsedLine = { readonly outcome: CardOutcome } | { readonly retry: string };

/**
 * Reads one typed line against a card: `/skip`; numbers (several, comma- or space-separated, on a multi-select
 * card); an option's label typed out; or free text where the card accepts it. A number out of range on a card
 * that accepts text is taken as text ("5" answering "how many retries?").
 */
export function parseLine(card: QuestionCard, line: string): ParsedLine {
  const text = line.trim();
  if (!text) return { retry: howToAnswer(card) };
  if (isSkip(card, text)) return { outcome: { type: 'skipped' } };
  const count = card.options.length;
  if (count > 0 && /^\d+(\s*[,\s]\s*\d+)*$/.test(text)) {
    const numbers = [...new Set(text.split(/[\s,]+/).map(Number))];
    const outside = numbers.filter((n) => n < 1 || n > count);
    if (outside.length === 0) {
      if (numbers.length > 1 && !card.multiSelect) return { retry: `Pick just one number, from 1 to ${count}.` };
      return { outcome: { type: 'answered', selected: numbers.map((n) => card.options[n - 1]?.label as string) } };
    }
    if (!card.allowFreeText) return { retry: `There is no option ${outside.join(', ')}; pick from 1 to ${count}.` };
  }
  const shortcut = card.kind === 'permission' ? PERMISSION_SHORTCUTS[text.toLowerCase()] : undefined;
  const option = card.options.find((o) => o.label.toLowerCase() === (shortcut ?? text).toLowerCase());
  if (option) return { outcome: { type: 'answered', selected: [option.label] } };
  if (card.allowFreeText) return { outcome: { type: 'answered', selected: [], text } };
  return { retry: `Please answer with a number from 1 to ${count}${card.multiSelect ? ' (several separated by commas)' : ''}, or "s" to skip.` };
}

/** The line echoed after an answer, so the human sees what was taken. */
export function renderOutcome(outcome: CardOutcome): string {
  if (outcome.type === 'skipped') return '→ skipped\n';
  if (outcome.type !== 'answered') return '';
  const parts = [...outcome.selected, ...(outcome.text === undefined ? [] : [JSON.stringify(outcome.text)])];
  return `→ ${parts.join(', ')}\n`;
}
