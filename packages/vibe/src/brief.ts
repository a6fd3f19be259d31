/** What a run of a worker is told: the whole brief for a fresh start, or only what is new for a resumed session. */

/** The note under each message of a restarted worker's brief. */
const RESTART_NOTE = '(You were restarted to take it into account; files may already hold changes from your earlier run.)';

/** The brief a fresh run receives: the original, then each message with a note that earlier work may be on disk. */
export function fullBrief(brief: string, messages: readonly string[]): string {
  if (messages.length === 0) return brief;
  const parts = messages.map((message, i) => `--- Message ${i + 1} from the lead ---\n${RESTART_NOTE}\n${message}`);
  return [brief, ...parts].join('\n\n');
}

/**
 * What a resumed session is sent: the messages it has not seen, in order. The agent remembers its brief and its
 * work; it only needs to know whether it was cut off mid-way.
 */
export function resumeMessage(fresh: readonly string[], interrupted: boolean): string {
  const body = fresh.length === 1 ? (fresh[0] as string) : fresh.map((m, i) => `--- Message ${i + 1} ---\n${m}`).join('\n\n');
  return interrupted ? `(The lead stopped your previous run to send you this; continue from where you were.)\n${body}` : body;
}
