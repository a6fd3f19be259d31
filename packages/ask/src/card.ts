import { AskError } from './errors.js';

/** One choice on a card. */
export interface CardOption {
  /** What the human picks, and what the model is told back. Unique within the card. */
  readonly label: string;
  /** A line explaining the choice. */
  readonly description?: string;
}

/**
 * What a question port renders: the question, why it is asked, the numbered options, and what kind of answer is
 * accepted. Questions from `ask_user` and permission requests render as the same card.
 */
export interface QuestionCard {
  /** `permission` for a "may I do this?" card made by {@link permissionApproval}, `question` otherwise. */
  readonly kind: 'question' | 'permission';
  readonly question: string;
  /** Why it is asked, and what depends on the answer. */
  readonly context?: string;
  readonly options: readonly CardOption[];
  /** Whether a typed answer is accepted. */
  readonly allowFreeText: boolean;
  /** Whether several options may be chosen. */
  readonly multiSelect: boolean;
}

/**
 * How a card ended, as a port reports it:
 * - `answered`: the chosen labels (at least one, unless free text was typed) and the typed text;
 * - `skipped`: the human chose not to answer;
 * - `timed_out`: nobody answered in time;
 * - `unavailable`: no human could be reached (the terminal's input ended, the UI went away).
 */
export type CardOutcome =
  | { readonly type: 'answered'; readonly selected: readonly string[]; readonly text?: string }
  | { readonly type: 'skipped' }
  | { readonly type: 'timed_out' }
  | { readonly type: 'unavailable'; readonly reason?: string };

/** Where cards are shown: a conversation, a channel, a terminal. One port may serve several spaces. */
export interface TargetSpace {
  /** A stable id the port routes on (a conversation or channel id). */
  readonly id: string;
  /** How to name it to a person or a model ("the terminal", "#release"). */
  readonly name?: string;
}

/** What a port is told beside the card. */
export interface AskOptions {
  /** Where the card belongs. */
  readonly target: TargetSpace;
  /**
   * Aborted when the card must be withdrawn: the call was cancelled, the question timed out, or the run ended.
   * The port removes the card then; what it resolves with afterwards is ignored. A timeout aborts with a
   * `DOMException` named `TimeoutError` (see `isTimeout`), any other reason means the call was cancelled.
   */
  readonly signal: AbortSignal;
  /** When the card times out, in milliseconds from now (for display: the timeout itself is enforced for the port). */
  readonly timeoutMs: number;
  /** The conversation the question comes from, when known. */
  readonly conversationId?: string;
}

/**
 * Renders cards to a human and reports how each ended. The package shows one card at a time per port (later
 * cards wait their turn), enforces the timeout and withdraws cards whose call was cancelled, so a port only
 * renders, reads and removes.
 */
export interface QuestionPort {
  /**
   * Whether a human is attached right now. When false a question fails at once (fail-closed) instead of
   * blocking a run that nobody watches.
   */
  readonly attached: boolean;
  /** Why nobody is attached, when {@link attached} is false ("the terminal input ended"), for the model. */
  readonly detachedReason?: string;
  /** Shows the card and resolves when it ends. Rejecting counts as `unavailable`. */
  ask(card: QuestionCard, options: AskOptions): Promise<CardOutcome>;
}

/** Limits of a card, so one question cannot flood a terminal. */
export const CARD_LIMITS = Object.freeze({ question: 2000, context: 4000, options: 20, label: 200, description: 500 });

/**
 * The problems of a card as `[path, message]` pairs, empty when it can be shown. Shared by the `ask_user`
 * parameter schema (which reports them to the model by field) and {@link checkCard}.
 */
export function cardProblems(card: {
  readonly question: string;
  readonly options: readonly CardOption[];
  readonly allowFreeText: boolean;
  readonly multiSelect: boolean;
}): [path: (string | number)[], message: string][] {
  const problems: [(string | number)[], string][] = [];
  if (!card.question.trim()) problems.push([['question'], 'the question is empty; write what you want to know']);
  const seen = new Map<string, number>();
  card.options.forEach((option, index) => {
    const key = option.label.trim().toLowerCase();
    if (!key) {
      problems.push([['options', index, 'label'], 'an option label is empty; give every option a short label']);
      return;
    }
    const first = seen.get(key);
    if (first !== undefined) {
      problems.push([
        ['options', index, 'label'],
        `the label "${option.label}" repeats option ${first + 1}; labels must be unique`,
      ]);
    } else {
      seen.set(key, index);
    }
  });
  if (card.options.length === 0 && !card.allowFreeText) {
    problems.push([['allow_free_text'], 'with no options the human can only type an answer; set it to true or give options']);
  }
  if (card.multiSelect && card.options.length < 2) {
    problems.push([['multi_select'], 'multiple choice needs at least two options']);
  }
  return problems;
}

/** Throws {@link AskError} `invalid_card` when the card cannot be shown. */
export function checkCard(card: QuestionCard): void {
  const problems = cardProblems(card);
  if (problems.length > 0) {
    throw new AskError('invalid_card', `This card cannot be shown: ${problems.map(([, m]) => m).join('; ')}.`);
  }
}

/**
 * Checks what a port answered against the card, so a buggy UI cannot tell the model the human chose an option
 * that was never offered. Labels are matched case-insensitively and returned as the card spells them.
 */
export function checkOutcome(card: QuestionCard, outcome: CardOutcome): CardOutcome {
  if (outcome.type !== 'answered') return outcome;
  const selected: string[] = [];
  for (const label of outcome.selected) {
    const option = card.options.find((o) => o.label.toLowerCase() === label.trim().toLowerCase());
    if (!option) throw new AskError('invalid_answer', `The port answered "${label}", which is not an option of the card.`);
    if (!selected.includes(option.label)) selected.push(option.label);
  }
  const text = outcome.text?.trim() ? outcome.text.trim() : undefined;
  if (text !== undefined && !card.allowFreeText) {
    throw new AskError('invalid_answer', 'The port answered with typed text, which the card does not accept.');
  }
  if (selected.length > 1 && !card.multiSelect) {
    throw new AskError('invalid_answer', `The port chose ${selected.length} options on a single-choice card.`);
  }
  if (selected.length === 0 && text === undefined) {
    throw new AskError('invalid_answer', 'The port answered with neither an option nor text.');
  }
  return text === undefined ? { type: 'answered', selected } : { type: 'answered', selected, text };
}
