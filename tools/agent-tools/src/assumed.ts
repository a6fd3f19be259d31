import { assumptionsOf, type QuestionPort } from '@agent-tools/ask';

/** The question port of each conversation the harness assembled, so the end of a run can read its ledger. */
const ports = new Map<string, QuestionPort>();

/** Remembers the port that asks a conversation's questions. */
export function rememberQuestionPort(conversationId: string, port: QuestionPort): void {
  ports.set(conversationId, port);
}

/**
 * What a run assumed without asking: each ask_user question that was skipped, timed out or reached nobody, with
 * the option the model was told to assume. '' when there is none. The harness prints it when a run ends.
 */
export function assumedWithoutAsking(conversationId: string, runId: string): string {
  const port = ports.get(conversationId);
  if (!port) return '';
  const entries = assumptionsOf(port, { runId });
  if (entries.length === 0) return '';
  const why = { skipped: 'skipped', timed_out: 'timed out', unavailable: 'nobody to ask', failed: 'could not be asked' } as const;
  const lines = entries.map((entry) => {
    const header = entry.header ? `[${entry.header}] ` : '';
    const assumed = entry.assumed ? `assumed ${JSON.stringify(entry.assumed)} (recommended)` : 'the model chose';
    return `- ${header}${entry.question} (${why[entry.reason]}): ${assumed}`;
  });
  return [`Assumed without asking (${entries.length}):`, ...lines].join('\n');
}
