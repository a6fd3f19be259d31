import type { AskOutcome } from './desk.js';

/** What the model is told to do whenever no answer came: the same words for a skip, a timeout and no human. */
export const PROCEED_ON_ASSUMPTION =
  'Proceed on a clearly stated assumption: choose what seems most reasonable, say in your next message what you assumed and why, and do not ask this question again.';

/** A duration as a person reads it: "150 ms", "45 s", "10 min", "1 h 5 min". */
export function formatDuration(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)} ms`;
  const seconds = Math.round(ms / 1000);
  if (seconds < 60) return `${seconds} s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) {
    const rest = seconds % 60;
    return rest ? `${minutes} min ${rest} s` : `${minutes} min`;
  }
  const hours = Math.floor(minutes / 60);
  return minutes % 60 ? `${hours} h ${minutes % 60} min` : `${hours} h`;
}

/** The sentence a model reads for an answer: the chosen labels as the card spells them, and the typed text. */
export function answerSentence(selected: readonly string[], text: string | undefined): string {
  const chosen = selected.map((label) => JSON.stringify(label)).join(', ');
  const typed = text === undefined ? '' : `wrote: ${JSON.stringify(text)}`;
  if (selected.length === 0) return `The user ${typed}.`;
  const choice = selected.length === 1 ? `chose ${chosen}` : `chose ${selected.length} options: ${chosen}`;
  return typed ? `The user ${choice} and ${typed}.` : `The user ${choice}.`;
}

/** The wording of every outcome of `ask_user`, and whether it is an error. */
export function outcomeText(outcome: AskOutcome, timeoutMs: number): { readonly text: string; readonly isError: boolean } {
  switch (outcome.type) {
    case 'answered':
      return { text: answerSentence(outcome.selected, outcome.text), isError: false };
    case 'skipped':
      return { text: `The user skipped this question without answering. ${PROCEED_ON_ASSUMPTION}`, isError: false };
    case 'timed_out':
      return {
        text: `Nobody answered within ${formatDuration(timeoutMs)}, so the question timed out. ${PROCEED_ON_ASSUMPTION}`,
        isError: true,
      };
    case 'unavailable':
      return {
        text: `The question could not reach a human (${outcome.reason ?? 'no human is attached'}), so nobody answered it: questions fail closed rather than wait for nobody. ${PROCEED_ON_ASSUMPTION} Do not call ask_user again in this run.`,
        isError: true,
      };
    case 'failed':
      return { text: `The question could not be asked: ${outcome.reason}. ${PROCEED_ON_ASSUMPTION}`, isError: true };
    case 'withdrawn':
      return { text: 'The question was withdrawn because the call was cancelled.', isError: true };
  }
}
