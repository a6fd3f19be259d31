import type { Surface } from './surface.js';
import type { Tier } from './tier.js';

/** What the harness's approval callback is asked. */
export interface ApprovalRequest {
  readonly tool: string;
  readonly tier: Tier;
  /** The validated arguments. */
  readonly args: unknown;
  readonly surface: Surface;
  readonly conversationId: string | undefined;
  /** True when a tool made the call through the bridge (a cell calling `tool(...)`), not the model. */
  readonly bridged: boolean;
  /** Aborted when the call is cancelled; a prompt should be withdrawn then. */
  readonly signal: AbortSignal;
}

/** The harness's answer: a boolean, or a decision with a reason the model is told. */
export type ApprovalDecision = boolean | { readonly approved: boolean; readonly reason?: string };

/** Decides whether a write or exec call may run. Supplied by the harness. */
export type ApprovalCallback = (request: ApprovalRequest) => ApprovalDecision | Promise<ApprovalDecision>;

/** Approves every call: for harnesses that gate elsewhere, and for tests. */
export const approveAll: ApprovalCallback = () => true;

/** Normalizes a decision. */
export function readDecision(decision: ApprovalDecision): { approved: boolean; reason?: string } {
  if (typeof decision === 'boolean') return { approved: decision };
  return { approved: decision.approved === true, ...(decision.reason ? { reason: decision.reason } : {}) };
}
