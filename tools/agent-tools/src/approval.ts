import { type ApprovalCallback, approveAll } from '@agent-tools/core';
import type { Terminal } from './plugin.js';

/**
 * The harness's approval gate: `--yes` approves everything; with a human at the terminal each write or exec call
 * is asked about (once, or for the rest of the run); with nobody attached every such call is refused.
 */
export function harnessApproval(options: { readonly yes: boolean; readonly terminal: Terminal | undefined }): ApprovalCallback {
  if (options.yes) return approveAll;
  const terminal = options.terminal;
  if (!terminal) {
    return () => ({
      approved: false,
      reason: 'no human is attached to approve it (the harness was started without a terminal and without --yes)',
    });
  }
  const always = new Set<string>();
  return async ({ tool, tier, args }) => {
    if (always.has(tool)) return true;
    const shown = JSON.stringify(args);
    terminal.write(`\n── approval ── ${tool} (${tier}) ${shown.length > 400 ? `${shown.slice(0, 400)}…` : shown}\n`);
    for (;;) {
      const answer = (await terminal.readLine('Allow? [y] once  [a] always for this run  [n] deny: '))?.trim().toLowerCase();
      if (answer === undefined || answer === 'n' || answer === 'no') return { approved: false, reason: 'denied at the terminal' };
      if (answer === 'y' || answer === 'yes') return true;
      if (answer === 'a' || answer === 'always') {
        always.add(tool);
        return true;
      }
      terminal.write('Please answer y, a or n.\n');
    }
  };
}
