import type { ApprovalCallback, ApprovalDecision, ApprovalRequest } from '@agent-tools/core';
import { capText, formatDuration } from '@agent-tools/core/internal';
import type { QuestionCard, QuestionPort, TargetSpace } from './card.js';
import { askCard } from './desk.js';

/** The labels of a permission card, in the order shown. */
export const PERMISSION_LABELS = Object.freeze({
  once: 'Allow once',
  run: 'Allow for this run',
  deny: 'Deny',
});

/** Argument names that say what a call acts on, most telling first. */
const SUBJECT_KEYS = ['file', 'path', 'program', 'edit_id', 'worker_id', 'module'] as const;
const TIER_MEANING = { read: 'has no side effects', write: 'changes files', exec: 'starts or drives a process' } as const;

/**
 * The card a permission request renders as: "Allow lsp_rename on src/a.ts?" with allow once / allow for this run /
 * deny, the arguments as context, and a typed answer taken as a reason for denying (so the human can redirect the
 * model in the same breath).
 */
export function permissionCard(request: Pick<ApprovalRequest, 'tool' | 'tier' | 'args' | 'bridged'>): QuestionCard {
  const args = (request.args && typeof request.args === 'object' ? request.args : {}) as Record<string, unknown>;
  const action = typeof args['action'] === 'string' ? ` ${args['action']}` : '';
  const subjectKey = SUBJECT_KEYS.find((key) => typeof args[key] === 'string' && args[key] !== '');
  const subject = subjectKey ? ` on ${String(args[subjectKey])}` : '';
  const shown = capText(JSON.stringify(request.args ?? {}), 600);
  const bridged = request.bridged ? ' It was made by another tool on the model\'s behalf, not by the model directly.' : '';
  return {
    kind: 'permission',
    question: `Allow ${request.tool}${action}${subject}?`,
    context: `${request.tool} ${TIER_MEANING[request.tier]} (${request.tier} tier).${bridged} Arguments: ${shown}`,
    options: [
      { label: PERMISSION_LABELS.once, description: 'Run this call.' },
      { label: PERMISSION_LABELS.run, description: `Run every ${request.tool} call of this run without asking again.` },
      { label: PERMISSION_LABELS.deny, description: 'Refuse it; the model is told you said no.' },
    ],
    allowFreeText: true,
    multiSelect: false,
  };
}

/** How {@link permissionApproval} asks. */
export interface PermissionApprovalOptions {
  readonly port: QuestionPort;
  readonly target: TargetSpace;
  /** How long a permission card waits before the call is refused (default 10 minutes). */
  readonly timeoutMs?: number;
  /** Told when the port throws (a bug in it), for the harness's `onError`; the call is refused either way. */
  readonly onPortError?: (error: unknown) => void;
}

/**
 * Turns a question port into core's approval callback, so permission requests render as the same card as
 * `ask_user` and queue with it. "Allow for this run" is remembered per tool for the life of the callback (create
 * one per run). Everything but an explicit allow refuses: deny, a typed reason, a skip, a timeout, no human.
 */
export function permissionApproval(options: PermissionApprovalOptions): ApprovalCallback {
  const timeoutMs = options.timeoutMs ?? 600_000;
  const allowed = new Set<string>();
  return async (request): Promise<ApprovalDecision> => {
    if (allowed.has(request.tool)) return true;
    const outcome = await askCard(options.port, permissionCard(request), {
      target: options.target,
      signal: request.signal,
      timeoutMs,
      ...(request.conversationId === undefined ? {} : { conversationId: request.conversationId }),
      ...(options.onPortError ? { onPortError: options.onPortError } : {}),
    });
    // Reasons end with a full stop: the registry appends its own instruction right after them.
    switch (outcome.type) {
      case 'answered': {
        // A permission card has one question, so its answer comes as `selected`.
        const [label] = outcome.selected ?? [];
        if (label === PERMISSION_LABELS.run) allowed.add(request.tool);
        if (label === PERMISSION_LABELS.once || label === PERMISSION_LABELS.run) return true;
        return outcome.text === undefined ? false : { approved: false, reason: `the user said: ${JSON.stringify(outcome.text)}.` };
      }
      case 'skipped':
        return { approved: false, reason: 'the user skipped the permission card without allowing the call.' };
      case 'timed_out':
        return { approved: false, reason: `nobody answered the permission card within ${formatDuration(timeoutMs)}.` };
      case 'unavailable':
        return { approved: false, reason: `${outcome.reason ?? 'no human is attached'} to approve it.` };
      case 'failed':
        return { approved: false, reason: `the permission card could not be shown (${outcome.reason}).` };
      case 'withdrawn':
        return { approved: false, reason: 'the call was cancelled while waiting for permission.' };
    }
  };
}
