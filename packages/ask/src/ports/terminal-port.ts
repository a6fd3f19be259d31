import type { CardOutcome, QuestionPort } from '../card.js';
import { isTimeout } from '../desk.js';
import { formatDuration } from '../wording.js';
import { ABANDONED, type LineSource, type LineTerminal, streamSource, type TerminalStreams, terminalSource } from './line-source.js';
import { parseLine, promptFor, renderCard, renderOutcome } from './render.js';

/** A question port that renders cards in a terminal; disposing it stops reading (it never closes the streams). */
export interface TerminalPort extends QuestionPort, Disposable {
  /** Stops reading input; later questions fail closed. */
  close(): void;
  dispose(): void;
}

function isLineTerminal(io: LineTerminal | TerminalStreams): io is LineTerminal {
  return typeof (io as LineTerminal).readLine === 'function';
}

/**
 * A question port for a human at a terminal: numbered options, typed answers, multi-select, `/skip`. Built over a
 * harness's line interface (`{ readLine(prompt), write(text) }`, such as the `agent-tools` harness's terminal, so
 * its REPL and the cards share one reader of standard input) or over plain streams (`{ input, output }`).
 * A human counts as attached until the input ends.
 */
export function terminalPort(io: LineTerminal | TerminalStreams): TerminalPort {
  const source: LineSource = isLineTerminal(io) ? terminalSource(io) : streamSource(io);
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
      for (;;) {
        const line = await source.read(promptFor(card), options.signal);
        if (line === ABANDONED) {
          const why = isTimeout(options.signal.reason)
            ? `no answer within ${formatDuration(options.timeoutMs)}, the ${card.kind} timed out`
            : `the ${card.kind} was withdrawn`;
          source.write(`\n(${why})\n`);
          return { type: 'unavailable', reason: why };
        }
        if (line === undefined) {
          source.write('\n(input ended before an answer)\n');
          return { type: 'unavailable', reason: 'the terminal input ended' };
        }
        const parsed = parseLine(card, line);
        if ('retry' in parsed) {
          source.write(`${parsed.retry}\n`);
          continue;
        }
        source.write(renderOutcome(parsed.outcome));
        return parsed.outcome;
      }
    },
    close,
    dispose: close,
    [Symbol.dispose]: close,
  };
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
