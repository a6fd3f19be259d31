import { permissionApproval, type QuestionPort, type TargetSpace, terminalPort } from '@agent-tools/ask';
import { type ApprovalCallback, approveAll } from '@agent-tools/core';
import { logBug } from './bug-log.js';
import type { Terminal } from './plugin.js';

/** Where the harness shows its cards. */
export const TERMINAL_TARGET: TargetSpace = Object.freeze({ id: 'terminal', name: 'the terminal' });

const ports = new WeakMap<Terminal, QuestionPort>();

/**
 * The question port of a terminal, one per terminal: ask_user cards and permission cards go through the same port,
 * so they queue together (one card at a time) and share one reader of standard input with the REPL.
 */
export function harnessQuestionPort(terminal: Terminal): QuestionPort {
  let port = ports.get(terminal);
  if (!port) {
    port = terminalPort(terminal);
    ports.set(terminal, port);
  }
  return port;
}

/**
 * The harness's approval gate: `--yes` approves everything; with a human at the terminal each write or exec call
 * is asked about on a permission card (allow once, allow for this run, deny, or type a reason to deny), the same
 * card ask_user renders; with nobody attached every such call is refused.
 */
export function harnessApproval(options: { readonly yes: boolean; readonly terminal: Terminal | undefined }): ApprovalCallback {
  if (options.yes) return approveAll;
  const terminal = options.terminal;
  if (!terminal) {
    return () => ({
      approved: false,
      reason: 'no human is attached to approve it (the harness was started without a terminal and without --yes).',
    });
  }
  return permissionApproval({ port: harnessQuestionPort(terminal), target: TERMINAL_TARGET, onPortError: (error) => logBug(error, 'permission card') });
}
