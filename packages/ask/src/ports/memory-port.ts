import type { AskOptions, CardOutcome, QuestionAnswer, QuestionCard, QuestionPort } from '../card.js';

/** A card the in-memory port is showing, with the buttons a test or a program presses. */
export interface MemoryCard {
  readonly card: QuestionCard;
  readonly target: AskOptions['target'];
  readonly timeoutMs: number;
  readonly conversationId: string | undefined;
  /** The signal the card was shown with; aborted when it is withdrawn. */
  readonly signal: AbortSignal;
  /** Whether the card was withdrawn (cancelled or timed out) before it was answered. */
  readonly withdrawn: boolean;
  /** Whether the card has ended (answered, skipped, or withdrawn). */
  readonly ended: boolean;
  /** Chooses options by label. */
  choose(...labels: string[]): void;
  /** Answers with typed text, optionally beside chosen labels. */
  type(text: string, ...labels: string[]): void;
  /** Answers a card of several questions, one answer per question in order (`{ type: 'skipped' }` skips one). */
  answer(...answers: QuestionAnswer[]): void;
  /** Presses the card's skip button: the card ends as `skipped`. */
  skipCard(): void;
  /** @deprecated Use {@link MemoryCard.skipCard}; the same button under a name a reader of a test cannot take for vitest's `skip`. */
  skip(): void;
  /** Reports a timeout from the port's side (a UI with its own clock). */
  timeOut(): void;
  /** Ends the card with any outcome, including malformed ones (to test how a broken UI is handled). */
  respond(outcome: CardOutcome | Record<string, unknown>): void;
}

/**
 * A question port held in memory: for tests, and for programmatic harnesses that answer cards themselves.
 * Disposing it ends the open card as `unavailable` and detaches it, so later questions fail closed.
 */
export interface MemoryPort extends QuestionPort, Disposable {
  /** Set to false to simulate that nobody is attached; cards already shown end as `unavailable`. */
  attached: boolean;
  /** Every card shown so far, in order. */
  readonly cards: readonly MemoryCard[];
  /** The cards up right now (at most one, since a port shows one card at a time). */
  readonly open: readonly MemoryCard[];
  /** The next card shown that `next()` has not returned yet; waits for one (rejects after `timeoutMs`, default 5 s). */
  next(timeoutMs?: number): Promise<MemoryCard>;
  dispose(): void;
}

/** How {@link memoryPort} behaves. */
export interface MemoryPortOptions {
  /** Whether a human counts as attached at first (default true). */
  readonly attached?: boolean;
  /** Answers every card as it is shown; without it cards wait for `next()` and a button. */
  readonly respond?: (card: QuestionCard, options: AskOptions) => CardOutcome | Promise<CardOutcome>;
}

/** Creates an in-memory question port. */
export function memoryPort(options: MemoryPortOptions = {}): MemoryPort {
  const cards: MemoryCard[] = [];
  const enders = new Map<MemoryCard, (outcome: CardOutcome) => void>();
  let taken = 0;
  const waiters: (() => void)[] = [];
  let attached = options.attached ?? true;
  let disposed = false;
  const detach = (reason: string): void => {
    attached = false;
    for (const end of [...enders.values()]) end({ type: 'unavailable', reason });
  };
  const dispose = (): void => {
    if (disposed) return;
    disposed = true;
    detach('the question port was closed');
  };

  const port: MemoryPort = {
    get attached() {
      return attached && !disposed;
    },
    set attached(value: boolean) {
      if (value) attached = true;
      else detach('the human went away');
    },
    get detachedReason() {
      return disposed ? 'the question port was closed' : undefined;
    },
    get cards() {
      return cards;
    },
    get open() {
      return cards.filter((c) => !c.ended);
    },
    ask(card, askOptions) {
      return new Promise<CardOutcome>((resolve, reject) => {
        let ended = false;
        const end = (outcome: CardOutcome): void => {
          if (ended) return;
          ended = true;
          enders.delete(shown);
          resolve(outcome);
        };
        const shown: MemoryCard = {
          card,
          target: askOptions.target,
          timeoutMs: askOptions.timeoutMs,
          conversationId: askOptions.conversationId,
          signal: askOptions.signal,
          get withdrawn() {
            return askOptions.signal.aborted;
          },
          get ended() {
            return ended || askOptions.signal.aborted;
          },
          choose: (...labels) => end({ type: 'answered', selected: labels }),
          type: (text, ...labels) => end({ type: 'answered', selected: labels, text }),
          answer: (...answers) => end({ type: 'answered', answers }),
          skipCard: () => end({ type: 'skipped' }),
          skip: () => end({ type: 'skipped' }),
          timeOut: () => end({ type: 'timed_out' }),
          respond: (outcome) => end(outcome as CardOutcome),
        };
        askOptions.signal.addEventListener('abort', () => end({ type: 'unavailable', reason: 'withdrawn' }), { once: true });
        cards.push(shown);
        enders.set(shown, end);
        for (const wake of waiters.splice(0)) wake();
        if (options.respond) {
          Promise.resolve()
            .then(() => options.respond?.(card, askOptions))
            .then(
              (outcome) => outcome && end(outcome),
              (error: unknown) => {
                // A throwing responder is a bug in the program answering: reported as a failed card, not a human's answer.
                if (ended) return;
                ended = true;
                enders.delete(shown);
                reject(error);
              },
            );
        }
      });
    },
    async next(timeoutMs = 5000) {
      const deadline = Date.now() + timeoutMs;
      while (taken >= cards.length) {
        const left = deadline - Date.now();
        if (left <= 0) throw new Error(`[agent-tools/ask] memoryPort.next(): no card was shown within ${timeoutMs} ms.`);
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, left);
          waiters.push(() => {
            clearTimeout(timer);
            resolve();
          });
        });
      }
      return cards[taken++] as MemoryCard;
    },
    dispose,
    [Symbol.dispose]: dispose,
  };
  return port;
}
