import type { BreakpointBook, BreakpointEntry, FunctionBreakpointEntry } from '../session/breakpoints.js';
import { showPath } from './text.js';

/** The extras of a breakpoint, as the model wrote them: `[condition: i > 5; hit count: 3]`, `[logpoint: "…"]`. */
function extras(entry: { condition?: string; hitCondition?: string; logMessage?: string }): string {
  const parts = [
    ...(entry.condition !== undefined ? [`condition: ${entry.condition}`] : []),
    ...(entry.hitCondition !== undefined ? [`hit count: ${entry.hitCondition}`] : []),
    ...(entry.logMessage !== undefined ? [`logpoint: ${JSON.stringify(entry.logMessage)}`] : []),
  ];
  return parts.length ? ` [${parts.join('; ')}]` : '';
}

/** The breakpoint a stop hit, when it is more than the line the program stopped on: `function main.twice`. */
export function hitBreakpoint(entry: BreakpointEntry | FunctionBreakpointEntry): string | undefined {
  if ('name' in entry) return `${entry.name}${extras(entry)}`;
  const more = extras(entry);
  return more ? `line ${entry.line}${more}` : undefined;
}

/** How one breakpoint's state reads, never "set" for one the adapter did not bind. */
function state(entry: BreakpointEntry | FunctionBreakpointEntry, where: string): string {
  const effect = 'logMessage' in entry && entry.logMessage !== undefined ? `nothing is logged ${where}` : `the program will not stop ${where}`;
  switch (entry.state) {
    case 'pending':
      return 'pending (sent to the adapter at launch)';
    case 'verified': {
      const notes = [
        ...('actualLine' in entry && entry.actualLine ? [`the adapter moved it to line ${entry.actualLine}`] : []),
        ...('logMessage' in entry && entry.logMessage !== undefined ? ['it prints to output and does not stop'] : []),
      ];
      return notes.length ? `verified (${notes.join('; ')})` : 'verified';
    }
    case 'unverified': {
      if (entry.awaitingCode) return `not bound yet — ${entry.message ?? 'the adapter binds it when the code loads'}`;
      const points = 'actualLine' in entry && entry.actualLine ? `; the adapter points at line ${entry.actualLine}` : '';
      return `NOT verified${entry.message ? ` — ${entry.message}` : ''} (${effect}${points})`;
    }
    case 'unsupported':
      return `NOT set — ${entry.message ?? 'the adapter does not support it'}`;
  }
}

/** One line breakpoint as a report line. */
export function breakpointLine(entry: BreakpointEntry): string {
  return `  line ${entry.line}${extras(entry)}: ${state(entry, 'here')}`;
}

/** One function breakpoint as a report line. */
export function functionBreakpointLine(entry: FunctionBreakpointEntry): string {
  return `  ${entry.name}${extras(entry)}: ${state(entry, 'there')}`;
}

/**
 * Where exceptions stop the program: before a session only when changed from the default; during one, the
 * filters sent and the ones the adapter also offers, so the model knows what `all` or an id would add.
 */
export function exceptionLine(book: BreakpointBook, adapterId: string | undefined, adapterNote?: string): string | undefined {
  const status = book.exceptionStatus;
  const asked = JSON.stringify(book.exceptions);
  if (!status || adapterId === undefined) {
    return asked === '["uncaught"]' ? undefined : `Exceptions: ${asked} (the filters are chosen at launch from what the adapter offers).`;
  }
  if (status.error) return `Exceptions: the ${adapterId} adapter refused the exception filters (${status.error}).`;
  const notOffered = status.unknown.length ? ` ${adapterId} does not offer ${status.unknown.map((id) => JSON.stringify(id)).join(', ')}.` : '';
  if (status.offered.length === 0) {
    return `Exceptions: the ${adapterId} adapter offers no exception filters${adapterNote ? `; ${adapterNote}` : ''}.${notOffered}`;
  }
  const label = (id: string): string => {
    const filter = status.offered.find((f) => f.filter === id);
    return filter?.label && filter.label !== id ? `${id} ("${filter.label}")` : id;
  };
  const others = status.offered.map((f) => f.filter).filter((id) => !status.applied.includes(id));
  const offers = others.length ? `; ${adapterId} ${status.applied.length ? 'also ' : ''}offers ${others.map(label).join(', ')}: pass exceptions ["all"] or filter ids` : '';
  let stops = status.applied.length ? `stops on ${status.applied.map(label).join(', ')}` : 'no exception filter is set';
  if (status.applied.length === 0 && book.exceptions.includes('uncaught')) {
    stops = `${adapterId} has no filter for uncaught exceptions${adapterNote ? ` (${adapterNote})` : ''}`;
  }
  return `Exceptions ${asked}: ${stops}${offers}.${notOffered}`;
}

/** Every breakpoint: one block per file, the function breakpoints, and the exception setting. */
export function breakpointReport(book: BreakpointBook, cwd: string, adapter?: { readonly id: string; readonly note?: string }): string {
  const blocks = book.files().map(([file, entries]) => `Breakpoints in ${showPath(file, cwd)}:\n${entries.map(breakpointLine).join('\n')}`);
  if (book.functions.length > 0) blocks.push(`Function breakpoints:\n${book.functions.map(functionBreakpointLine).join('\n')}`);
  if (blocks.length === 0) blocks.push('No breakpoints are set.');
  const exceptions = exceptionLine(book, adapter?.id, adapter?.note);
  if (exceptions) blocks.push(exceptions);
  return blocks.join('\n');
}
