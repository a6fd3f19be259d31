import { permissionApproval, type QuestionPort, type TargetSpace } from '@agent-tools/ask';
import { type ApprovalCallback, approveAll } from '@agent-tools/core';
import { McpServerError } from './errors.js';

/**
 * Who approves write and exec calls of an MCP session:
 * - `client`: the MCP client, which confirms calls with its human before making them (the tool annotations tell it
 *   which ones change files or run processes); the server runs what it is sent;
 * - `elicit`: the server asks the client's human itself, through elicitation, on the same card ask_user uses; a
 *   client without elicitation gets every such call refused;
 * - `yes`: every call is approved, for clients run without a human.
 */
export type ApprovalMode = 'client' | 'elicit' | 'yes';

/** The approval modes, for option parsing. */
export const APPROVAL_MODES: readonly ApprovalMode[] = Object.freeze(['client', 'elicit', 'yes']);

/**
 * The approval callback of a mode, asking through the session's port when the mode is `elicit`; a failure of the port
 * there (the form could not be asked) refuses the call and is told to `onPortError`, the session's `onError`.
 */
export function approvalFor(
  mode: ApprovalMode,
  port: QuestionPort,
  target: TargetSpace,
  timeoutMs: number | undefined,
  onPortError?: (error: unknown) => void,
): ApprovalCallback {
  switch (mode) {
    case 'client':
    case 'yes':
      return approveAll;
    case 'elicit':
      return permissionApproval({ port, target, ...(timeoutMs === undefined ? {} : { timeoutMs }), ...(onPortError ? { onPortError } : {}) });
    default:
      throw new McpServerError('invalid_option', `Unknown approval mode "${String(mode)}"; use ${APPROVAL_MODES.join(', ')}.`);
  }
}
