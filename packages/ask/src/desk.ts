import { errorDetail } from '@agent-tools/core';
import { afterDelay } from '@agent-tools/core/internal';
import { type CardOutcome, checkCard, type QuestionCard, type QuestionPort, type TargetSpace } from './card.js';
import { checkOutcome } from './outcome-check.js';

/** How {@link askCard} is told where and how long to ask. */
export interface AskCardOptions {
  readonly target: TargetSpace;
  /** Cancels the question: a queued card is dropped, a shown card is withdrawn. */
  readonly signal?: AbortSignal;
  /** How long the card stays up once shown (queued time does not count). */
  readonly timeoutMs: number;
  readonly conversationId?: string;
  /**
   * Told when the port throws or answers what the card does not allow (a bug in the port), for the harness's
   * `onError` (ask_user passes `ctx.reportError`); the outcome is `failed` either way.
   */
  readonly onPortError?: (error: unknown) => void;
}

/**
 * How a card ended for its asker: what the port reported, `withdrawn` when the asker cancelled it, or `failed`
 * when the port broke (threw, or answered something the card does not allow).
 */
export type AskOutcome =
  | CardOutcome
  | { readonly type: 'withdrawn' }
  | { readonly type: 'failed'; readonly reason: string };

interface Entry {
  readonly card: QuestionCard;
  readonly options: AskCardOptions;
  readonly resolve: (outcome: AskOutcome) => void;
  settled: boolean;
}


/**
 * One card at a time per port: later questions wait in arrival order, a queued question whose call is cancelled
 * leaves the queue without ever being shown, and a shown one is withdrawn. Shared by every asker of the port
 * (ask_user and permission cards), which is why desks are kept per port rather than per factory.
 */
class Desk {
  readonly #port: QuestionPort;
  readonly #queue: Entry[] = [];
  #busy = false;

  constructor(port: QuestionPort) {
    this.#port = port;
  }

  ask(card: QuestionCard, options: AskCardOptions): Promise<AskOutcome> {
    if (!this.#port.attached) return Promise.resolve(noHuman(this.#port, options.target));
    if (options.signal?.aborted) return Promise.resolve({ type: 'withdrawn' });
    return new Promise<AskOutcome>((resolve) => {
      const entry: Entry = { card, options, resolve, settled: false };
      this.#queue.push(entry);
      options.signal?.addEventListener(
        'abort',
        () => {
          const index = this.#queue.indexOf(entry);
          if (index !== -1) {
            this.#queue.splice(index, 1);
            settle(entry, { type: 'withdrawn' });
          }
        },
        { once: true },
      );
      this.#pump();
    });
  }

  #pump(): void {
    if (this.#busy) return;
    const entry = this.#queue.shift();
    if (!entry) return;
    this.#busy = true;
    void this.#show(entry)
      // Only the port can make this throw (its `attached` or `detachedReason` getter): the card failed, and the desk
      // must go on to the next one, not stay busy for ever.
      .catch((error: unknown): AskOutcome => {
        tellPortError(entry.options, error);
        return { type: 'failed', reason: errorDetail(error) };
      })
      .then((outcome) => {
        settle(entry, outcome);
        this.#busy = false;
        this.#pump();
      });
  }

  async #show(entry: Entry): Promise<AskOutcome> {
    const { card, options } = entry;
    // The human may have left while this card waited its turn.
    if (!this.#port.attached) return noHuman(this.#port, options.target);
    const controller = new AbortController();
    const withdraw = (): void => controller.abort(options.signal?.reason);
    options.signal?.addEventListener('abort', withdraw, { once: true });
    const cancelTimer = afterDelay(options.timeoutMs, () => controller.abort(timeoutReason()));
    const ended = new Promise<AskOutcome>((resolve) => {
      controller.signal.addEventListener(
        'abort',
        () => resolve(isTimeout(controller.signal.reason) ? { type: 'timed_out' } : { type: 'withdrawn' }),
        { once: true },
      );
    });
    const answered = Promise.resolve()
      .then(() =>
        this.#port.ask(card, {
          target: options.target,
          signal: controller.signal,
          timeoutMs: options.timeoutMs,
          ...(options.conversationId === undefined ? {} : { conversationId: options.conversationId }),
        }),
      )
      // A port that throws, or answers what the card does not allow, must not hang the call or lie to the model.
      .then((outcome): AskOutcome => checkOutcome(card, outcome))
      .catch((error: unknown): AskOutcome => {
        tellPortError(options, error);
        return { type: 'failed', reason: errorDetail(error) };
      });
    try {
      return await Promise.race([answered, ended]);
    } finally {
      cancelTimer();
      options.signal?.removeEventListener('abort', withdraw);
    }
  }
}

/** The abort reason of a card that timed out: a `TimeoutError`, as `AbortSignal.timeout()` uses. */
function timeoutReason(): DOMException {
  return new DOMException('The question timed out.', 'TimeoutError');
}

/** Whether a withdrawn card's abort reason says it timed out (ports use it to word the withdrawal). */
export function isTimeout(reason: unknown): boolean {
  return reason instanceof DOMException && reason.name === 'TimeoutError';
}

/** Tells the asker's `onPortError` of a port's bug; a logger that throws has nowhere to go and changes no outcome. */
function tellPortError(options: AskCardOptions, error: unknown): void {
  try {
    options.onPortError?.(error);
  } catch {
    // The harness's logger failed; the card has failed either way.
  }
}

function settle(entry: Entry, outcome: AskOutcome): void {
  if (entry.settled) return;
  entry.settled = true;
  entry.resolve(outcome);
}

function noHuman(port: QuestionPort, target: TargetSpace): AskOutcome {
  return { type: 'unavailable', reason: port.detachedReason ?? `no human is attached to ${target.name ?? target.id}` };
}

const desks = new WeakMap<QuestionPort, Desk>();

/**
 * Asks a card through a port, in turn with every other card of that port: what `ask_user` and the permission
 * helper use, and what a harness uses to ask its human something itself. Never rejects: a broken port comes
 * back as `failed`. Throws only for a card that cannot be shown ({@link AskError} `invalid_card`).
 */
export function askCard(port: QuestionPort, card: QuestionCard, options: AskCardOptions): Promise<AskOutcome> {
  checkCard(card);
  let desk = desks.get(port);
  if (!desk) {
    desk = new Desk(port);
    desks.set(port, desk);
  }
  return desk.ask(card, options);
}
