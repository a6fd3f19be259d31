import { collapseCarriageReturns, stripTerminalCodes } from '@agent-tools/core/internal';

/**
 * A worker's output as the model reads it: what its terminal would show (no colour codes, progress bars at their
 * last state, no NUL or bell), trimmed. A CLI agent run without a terminal still colours its output now and then.
 */
export function plainOutput(text: string): string {
  return collapseCarriageReturns(stripTerminalCodes(text)).trim();
}
