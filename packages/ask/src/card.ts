import { AskError } from './errors.js';

/** One choice on a card. */
export interface CardOption {
  /** What the human picks, and what the model is told back. Unique within its question. */
  readonly label: string;
  /** A line explaining the choice. */
  readonly description?: string;
}

/** One question of a card: what to ask, the numbered options, and what kind of answer is accepted. */
export interface CardQuestion {
  readonly question: string;
  /** A short tag shown beside the question ("Database"), so a card of several questions can be scanned. */
  readonly header?: string;
  readonly options: readonly CardOption[];
  /** Whether a typed answer is accepted. */
  readonly allowFreeText: boolean;
  /** Whether several options may be chosen. */
  readonly multiSelect: boolean;
  /** The label of the option the asker recommends (and assumes when the question goes unanswered). */
  readonly recommended?: string;
}

/**
 * What a question port renders: one or several questions (up to four) on one card, why they are asked, and how
 * each may be answered. Questions from `ask_user` and permission requests render as the same card.
 *
 * A card of one question carries it in its own fields. A card of several lists them all in `questions` and repeats
 * the first in its own fields, so a port written for single questions still shows something sensible (and its
 * single answer is then refused with a clear error). Read a card's questions with {@link cardQuestions}.
 */
export interface QuestionCard extends CardQuestion {
  /** `permission` for a "may I do this?" card made by `permissionApproval`, `question` otherwise. */
  readonly kind: 'question' | 'permission';
  /** Why it is asked, and what depends on the answers. */
  readonly context?: string;
  /** Every question of the card, in order, when there are several. */
  readonly questions?: readonly CardQuestion[];
}

/** The questions of a card, in order: `questions` when it has several, else the card's own question. */
export function cardQuestions(card: QuestionCard): readonly CardQuestion[] {
  return card.questions && card.questions.length > 0 ? card.questions : [card];
}

/** A port's answer to one question of a card: the chosen labels and the typed text, or a skip of that question. */
export type QuestionAnswer =
  | { readonly type: 'answered'; readonly selected: readonly string[]; readonly text?: string }
  | { readonly type: 'skipped' };

/**
 * How a card ended, as a port reports it:
 * - `answered`: for a card of one question, the chosen labels (at least one, unless free text was typed) and the
 *   typed text; for any card, `answers`, one per question in order (each may be skipped on its own);
 * - `skipped`: the human chose not to answer the card;
 * - `timed_out`: nobody answered in time;
 * - `unavailable`: no human could be reached (the terminal's input ended, the UI went away).
 */
export type CardOutcome =
  | { readonly type: 'answered'; readonly selected: readonly string[]; readonly text?: string; readonly answers?: undefined }
  | { readonly type: 'answered'; readonly answers: readonly QuestionAnswer[]; readonly selected?: undefined; readonly text?: undefined }
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
  /** Shows the card and resolves when it ends. Rejecting counts as a failure: the model is told the question could not be asked. */
  ask(card: QuestionCard, options: AskOptions): Promise<CardOutcome>;
  /**
   * For a port with work outside any card (a line read after its card was withdrawn): tells `reporter` of a bug
   * there; the ask factory subscribes the run's `reportError`. Returns the function that stops telling it.
   */
  onBackgroundError?(reporter: (error: unknown) => void): () => void;
}

/** Limits of a card, so one question cannot flood a terminal. */
export const CARD_LIMITS = Object.freeze({
  question: 2000,
  context: 4000,
  options: 20,
  label: 200,
  description: 500,
  header: 30,
  questions: 4,
});

/** A problem of a card: where (the parameter path `ask_user` reports) and what. */
export type CardProblem = [path: (string | number)[], message: string];

/**
 * The problems of one question as `[path, message]` pairs under `path` (`[]` for the single form,
 * `['questions', 2]` for the third of several), empty when it can be shown.
 */
export function questionProblems(question: CardQuestion, path: readonly (string | number)[] = []): CardProblem[] {
  const at = (...rest: (string | number)[]): (string | number)[] => [...path, ...rest];
  const problems: CardProblem[] = [];
  if (!question.question.trim()) problems.push([at('question'), 'the question is empty; write what you want to know']);
  const seen = new Map<string, number>();
  question.options.forEach((option, index) => {
    const key = option.label.trim().toLowerCase();
    if (!key) {
      problems.push([at('options', index, 'label'), 'an option label is empty; give every option a short label']);
      return;
    }
    const first = seen.get(key);
    if (first !== undefined) {
      problems.push([at('options', index, 'label'), `the label "${option.label}" repeats option ${first + 1}; labels must be unique`]);
    } else {
      seen.set(key, index);
    }
  });
  if (question.options.length === 0 && !question.allowFreeText) {
    problems.push([at('allow_free_text'), 'with no options the human can only type an answer; set it to true or give options']);
  }
  if (question.multiSelect && question.options.length < 2) {
    problems.push([at('multi_select'), 'multiple choice needs at least two options']);
  }
  if (question.header !== undefined && !question.header.trim()) {
    problems.push([at('header'), 'the header is empty; give a short tag such as "Database", or leave it out']);
  }
  if (question.recommended !== undefined && !seen.has(question.recommended.trim().toLowerCase())) {
    const labels = question.options.map((o) => JSON.stringify(o.label)).join(', ');
    problems.push([
      at('recommended'),
      labels
        ? `"${question.recommended}" is not one of the options (${labels}); name the recommended option by its label`
        : 'a question without options cannot recommend one; leave recommended out',
    ]);
  }
  return problems;
}

/** The problems of a card, each question's under its own path; empty when it can be shown. */
export function cardProblems(card: QuestionCard): CardProblem[] {
  const several = card.questions !== undefined && card.questions.length > 0;
  if (several && (card.questions?.length ?? 0) > CARD_LIMITS.questions) {
    return [[['questions'], `a card holds at most ${CARD_LIMITS.questions} questions; ask the most important ones first`]];
  }
  const questions = cardQuestions(card);
  const problems = questions.flatMap((q, i) => questionProblems(q, several ? ['questions', i] : []));
  const seen = new Map<string, number>();
  questions.forEach((q, i) => {
    const key = q.question.trim().toLowerCase();
    const first = seen.get(key);
    if (key && first !== undefined) problems.push([['questions', i, 'question'], `it repeats question ${first + 1}; ask each question once`]);
    else if (key) seen.set(key, i);
  });
  return problems;
}

/** Throws {@link AskError} `invalid_card` when the card cannot be shown. */
export function checkCard(card: QuestionCard): void {
  const problems = cardProblems(card);
  if (problems.length > 0) {
    throw new AskError('invalid_card', `This card cannot be shown: ${problems.map(([, m]) => m).join('; ')}.`);
  }
}
