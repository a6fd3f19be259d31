import { BackgroundErrors, formatDuration } from '@agent-tools/core/internal';
import { type CardOutcome, type CardQuestion, cardQuestions, type QuestionAnswer, type QuestionCard, type QuestionPort } from '../card.js';
import { isTimeout } from '../desk.js';
import { ABANDONED, type LineSource, type LineTerminal, streamSource, type TerminalStreams, terminalSource } from './line-source.js';
import { parseAnswer, promptFor, renderCard, renderOutcome } from './render.js';

/** A question port that renders cards in a terminal; disposing it stops reading (it never closes the streams). */
export interface TerminalPort extends QuestionPort, Disposable {
  /** Stops reading input; later questions fail closed. */
  close(): void;
  dispose(): void;
  /** See {@link QuestionPort.onBackgroundError}: a throw of the harness's `write` for a line no card wanted. */
  onBackgroundError(reporter: (error: unknown) => void): () => void;
}

function isLineTerminal(io: LineTerminal | TerminalStreams): io is LineTerminal {
  return typeof (io as LineTerminal).readLine === 'function';
}

/**
 * A question port for a human at a terminal: numbered options, typed answers, multi-select, `/skip`; the questions
 * of a card of several are answered in turn (`/skip` skips one, `/skip all` the rest). Built over a
 * harness's line interface (`{ readLine(prompt), write(text) }`, such as the `agent-tools` harness's terminal, so
 * its REPL and the cards share one reader of standard input) or over plain streams (`{ input, output }`).
 * A human counts as attached until the input ends.
 */
export function terminalPort(io: LineTerminal | TerminalStreams): TerminalPort {
  const background = new BackgroundErrors();
  const source: LineSource = isLineTerminal(io) ? terminalSource(io, background) : streamSource(io);
  let closed = false;
  const close = (): void => {
    if (closed) return;
    closed = true;
    source.close();
  };
  return {
    get attached() {
      return !closed && !source.ended;
    },
    get detachedReason() {
      if (closed) return 'the terminal port was closed';
      return source.ended ? 'the terminal input ended' : undefined;
    },
    async ask(card, options): Promise<CardOutcome> {
      source.write(renderCard(card, options.timeoutMs));
      const questions = cardQuestions(card);
      const several = questions.length > 1;
      const answers: QuestionAnswer[] = [];
      for (const [index, question] of questions.entries()) {
        const answer = await readAnswer(source, card, question, several ? index : undefined, options.signal, options.timeoutMs);
        if ('end' in answer) return answer.end;
        if (answer.skipAll) {
          while (answers.length < questions.length) answers.push({ type: 'skipped' });
          break;
        }
        answers.push(answer.answer);
      }
      if (answers.every((a) => a.type === 'skipped')) return { type: 'skipped' };
      if (!several) {
        const [only] = answers as [{ type: 'answered'; selected: readonly string[]; text?: string }];
        return only.text === undefined ? { type: 'answered', selected: only.selected } : { type: 'answered', selected: only.selected, text: only.text };
      }
      return { type: 'answered', answers };
    },
    onBackgroundError: (reporter) => background.subscribe(reporter),
    close,
    dispose: close,
    [Symbol.dispose]: close,
  };
}

type ReadAnswer = { readonly end: CardOutcome } | { readonly skipAll: true } | { readonly skipAll?: false; readonly answer: QuestionAnswer };

/** Reads lines until one answers the question (re-prompting on a bad one), or the card ends. */
async function readAnswer(
  source: LineSource,
  card: QuestionCard,
  question: CardQuestion,
  index: number | undefined,
  signal: AbortSignal,
  timeoutMs: number,
): Promise<ReadAnswer> {
  for (;;) {
    const line = await source.read(promptFor(card, index), signal);
    if (line === ABANDONED) {
      const what = index === undefined ? `the ${card.kind}` : 'the card';
      const why = isTimeout(signal.reason) ? `no answer within ${formatDuration(timeoutMs)}, ${what} timed out` : `${what} was withdrawn`;
      source.write(`\n(${why})\n`);
      return { end: { type: 'unavailable', reason: why } };
    }
    if (line === undefined) {
      source.write('\n(input ended before an answer)\n');
      return { end: { type: 'unavailable', reason: 'the terminal input ended' } };
    }
    if (typeof line === 'object') return { end: { type: 'unavailable', reason: line.failed } };
    const parsed = parseAnswer(card.kind, question, line, index !== undefined);
    if ('retry' in parsed) {
      source.write(`${parsed.retry}\n`);
      continue;
    }
    if ('skipAll' in parsed) {
      source.write('→ skipped the rest\n');
      return { skipAll: true };
    }
    source.write(renderOutcome(parsed.answer));
    return { answer: parsed.answer };
  }
}

/**
 * A port for a run with nobody attached: every question fails at once with `reason` (fail-closed), instead of
 * blocking a run that no one watches. What a harness registers when it has no human, so the model learns that
 * it must proceed on its own assumptions.
 */
export function detachedPort(reason = 'no human is attached to this run'): QuestionPort {
  return {
    attached: false,
    detachedReason: reason,
    ask: () => Promise.resolve({ type: 'unavailable', reason }),
  };
}
