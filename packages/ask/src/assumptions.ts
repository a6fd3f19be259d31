import type { QuestionPort } from './card.js';

/** Why a question went unanswered, so the model proceeded on an assumption. */
export type UnansweredReason = 'skipped' | 'timed_out' | 'unavailable' | 'failed';

/** A question the model had to proceed without: what was asked, why it went unanswered, what it was told to do. */
export interface Assumption {
  readonly question: string;
  readonly header?: string;
  readonly reason: UnansweredReason;
  /** The option the model was told to assume: the question's recommended one, when it had one. */
  readonly assumed?: string;
  /** The instruction the model read: proceed on a clearly stated assumption, and say what it assumed. */
  readonly instruction: string;
  /** When the question ended, in milliseconds since the epoch. */
  readonly at: number;
  /** The run (registry) whose model asked. */
  readonly runId: string;
  readonly conversationId?: string;
  /** The id of the target space the card was shown in (or would have been). */
  readonly target: string;
}

/** Which assumptions {@link assumptionsOf} returns. */
export interface AssumptionFilter {
  readonly runId?: string;
  readonly conversationId?: string;
  readonly target?: string;
}

/** Assumptions kept per port; the oldest go first past this, so a long-lived port serving many runs stays bounded. */
const MAX_KEPT = 1000;

const ledgers = new WeakMap<QuestionPort, Assumption[]>();

/** Records assumptions made on a port's questions (what `ask_user` does for every unanswered question). */
export function recordAssumptions(port: QuestionPort, entries: readonly Assumption[]): void {
  if (entries.length === 0) return;
  let ledger = ledgers.get(port);
  if (!ledger) {
    ledger = [];
    ledgers.set(port, ledger);
  }
  ledger.push(...entries);
  if (ledger.length > MAX_KEPT) ledger.splice(0, ledger.length - MAX_KEPT);
}

/**
 * The assumption ledger of a question port: every question asked through it with `ask_user` that was skipped, timed
 * out, found no human or could not be shown, with what the model was told to assume, oldest first. Filter by the run
 * (`registry.runId`), conversation or target space, so a harness can show "assumed without asking" at the end of a
 * run. Kept in memory, the newest 1,000 per port.
 */
export function assumptionsOf(port: QuestionPort, filter: AssumptionFilter = {}): Assumption[] {
  return (ledgers.get(port) ?? []).filter(
    (entry) =>
      (filter.runId === undefined || entry.runId === filter.runId) &&
      (filter.conversationId === undefined || entry.conversationId === filter.conversationId) &&
      (filter.target === undefined || entry.target === filter.target),
  );
}

/** Forgets a port's assumptions (those matching the filter; all without one), for a harness that starts afresh. */
export function clearAssumptions(port: QuestionPort, filter: AssumptionFilter = {}): void {
  const ledger = ledgers.get(port);
  if (!ledger) return;
  const drop = new Set(assumptionsOf(port, filter));
  ledgers.set(
    port,
    ledger.filter((entry) => !drop.has(entry)),
  );
}
