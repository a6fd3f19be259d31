import { AgentToolsError, errorDetail } from '@agent-tools/core';
import type { RequestOptions } from '../dap/connection.js';
import type { DebugProtocol } from '../dap/protocol.js';
import { isDebugError } from '../errors.js';
import type { BreakpointConditions, BreakpointEntry, ExceptionRequest, FunctionBreakpointEntry } from './breakpoints.js';
import { type HitConditionTranslation, parseHitCondition, plainHitCondition } from './hit-condition.js';
import type { ConfigurableSession } from './types.js';

/** Each breakpoint kind, the capability an adapter announces for it, and its name in the tool's arguments. */
const KINDS = [
  { key: 'condition', capability: 'supportsConditionalBreakpoints', name: 'conditions (condition)' },
  { key: 'hitCondition', capability: 'supportsHitConditionalBreakpoints', name: 'hit conditions (hit_condition)' },
  { key: 'logMessage', capability: 'supportsLogPoints', name: 'logpoints (log_message)' },
] as const;

/** The kinds a breakpoint uses that the adapter did not announce support for. */
export function unsupportedKinds(capabilities: DebugProtocol.Capabilities, conditions: BreakpointConditions): string[] {
  return KINDS.filter((kind) => conditions[kind.key] !== undefined && !capabilities[kind.capability]).map((kind) => kind.name);
}

/**
 * Sends every breakpoint and the exception setting, as at configuration time (before `configurationDone`). Only
 * a dead adapter fails this; a refused request is recorded on the breakpoints it concerned.
 */
export async function configureBreakpoints(session: ConfigurableSession, options: RequestOptions = {}): Promise<void> {
  const book = session.spec.book;
  for (const [file] of book.files()) await sendLineBreakpoints(session, file, options);
  if (book.functions.length > 0) await sendFunctionBreakpoints(session, options);
  await sendExceptionBreakpoints(session, options);
}

/**
 * Sends the breakpoints of one file and records what the adapter verified. A breakpoint needing a kind the
 * adapter lacks is not sent: a plain breakpoint in its place would stop where nobody asked, and a logpoint
 * turned into a breakpoint would stop a program that should run on.
 */
export async function sendLineBreakpoints(session: ConfigurableSession, file: string, options: RequestOptions = {}): Promise<void> {
  const book = session.spec.book;
  const entries = book.get(file);
  const sent = screen(session, entries);
  await sendAndRecord(session, entries, sent, () =>
    session.request(
      'setBreakpoints',
      {
        source: { path: file, name: file.slice(file.lastIndexOf('/') + 1) },
        breakpoints: sent.map((e) => ({ line: e.line, ...conditionsOf(session, e) })),
        lines: sent.map((e) => e.line),
      },
      options,
    ),
  );
}

/** Sends the function breakpoints (all of them: the request replaces the adapter's list). */
export async function sendFunctionBreakpoints(session: ConfigurableSession, options: RequestOptions = {}): Promise<void> {
  const book = session.spec.book;
  const entries = book.functions;
  if (!session.capabilities.supportsFunctionBreakpoints) {
    for (const entry of entries) {
      book.refuse(entry, `the ${session.adapterId} adapter does not support function breakpoints; set a line breakpoint on the function's first line instead`);
    }
    return;
  }
  const problem = session.spec.selected.config.functionBreakpointProblem;
  const named = entries.filter((entry) => {
    const why = problem?.(entry.name);
    if (why) book.refuse(entry, why);
    return why === undefined;
  });
  const sent = screen(session, named);
  await sendAndRecord(session, entries, sent, () =>
    session.request('setFunctionBreakpoints', { breakpoints: sent.map((e) => ({ name: e.name, ...conditionsOf(session, e) })) }, options),
  );
}

/**
 * Sends where exceptions stop the program, mapped onto the filters the adapter offers: `uncaught` is the
 * adapter's default filters (else those named uncaught/unhandled), `all` adds the filters that stop where an
 * exception is raised or thrown, and explicit ids are sent when the adapter offers them.
 */
export async function sendExceptionBreakpoints(session: ConfigurableSession, options: RequestOptions = {}): Promise<void> {
  const book = session.spec.book;
  const offered = session.capabilities.exceptionBreakpointFilters ?? [];
  const { applied, unknown } = chooseFilters(book.exceptions, offered);
  if (offered.length === 0) {
    book.recordExceptions({ applied: [], offered, unknown });
    return;
  }
  try {
    await session.request('setExceptionBreakpoints', { filters: [...applied] }, options);
    book.recordExceptions({ applied, offered, unknown });
  } catch (error) {
    if (isDebugError(error, 'adapter_exited')) throw error;
    // As for breakpoints (sendAndRecord): the adapter's refusal is the setting's message; a bug is told as well.
    if (!AgentToolsError.isInstance(error)) session.spec.background.report(error);
    book.recordExceptions({ applied: [], offered, unknown, error: errorDetail(error) });
  }
}

/** The filter ids an exception request means for an adapter offering `offered`. */
export function chooseFilters(
  request: ExceptionRequest,
  offered: readonly DebugProtocol.ExceptionBreakpointsFilter[],
): { applied: string[]; unknown: string[] } {
  const ids = offered.map((f) => f.filter);
  const named = (pattern: RegExp): string[] => offered.filter((f) => pattern.test(f.filter)).map((f) => f.filter);
  const defaults = offered.filter((f) => f.default).map((f) => f.filter);
  const uncaught = defaults.length > 0 ? defaults : named(/^(uncaught|unhandled)/i);
  const raised = named(/raise|throw|^all/i);
  const all = raised.length > 0 ? [...raised, ...uncaught] : ids;
  const applied = new Set<string>();
  const unknown: string[] = [];
  for (const item of request) {
    const chosen = item === 'all' ? all : item === 'uncaught' ? uncaught : ids.includes(item) ? [item] : undefined;
    if (chosen) for (const id of chosen) applied.add(id);
    else unknown.push(item);
  }
  return { applied: ids.filter((id) => applied.has(id)), unknown };
}

/** Marks the entries needing kinds the adapter lacks, and returns the others (the ones to send). */
function screen<E extends BreakpointEntry | FunctionBreakpointEntry>(session: ConfigurableSession, entries: readonly E[]): E[] {
  const sent: E[] = [];
  for (const entry of entries) {
    const missing = unsupportedKinds(session.capabilities, entry);
    const hits = missing.length === 0 ? hitTranslation(session, entry) : undefined;
    const logMessage = 'logMessage' in entry ? entry.logMessage : undefined;
    const unreadable = logMessage !== undefined ? session.spec.selected.config.logMessageProblem?.(logMessage) : undefined;
    if (missing.length > 0) {
      session.spec.book.refuse(
        entry,
        `the ${session.adapterId} adapter does not support ${missing.join(' or ')}, so it was not set (a plain breakpoint would stop where you did not ask)`,
      );
    } else if (hits && 'unsupported' in hits) {
      session.spec.book.refuse(entry, hits.unsupported);
    } else if (unreadable) {
      session.spec.book.refuse(entry, unreadable);
    } else {
      sent.push(entry);
    }
  }
  return sent;
}

/** The hit condition in the adapter's own terms, or why it cannot keep it; `undefined` without one. */
function hitTranslation(session: ConfigurableSession, entry: BreakpointConditions): HitConditionTranslation | undefined {
  if (entry.hitCondition === undefined) return undefined;
  const parsed = parseHitCondition(entry.hitCondition);
  // The tool only takes counts; anything else came from a caller of the book, and goes as written.
  if (!parsed) return { text: entry.hitCondition };
  const translate = session.spec.selected.config.hitCondition ?? plainHitCondition;
  return translate(parsed, { withCondition: entry.condition !== undefined });
}

async function sendAndRecord<E extends BreakpointEntry | FunctionBreakpointEntry>(
  session: ConfigurableSession,
  entries: readonly E[],
  sent: readonly E[],
  send: () => Promise<{ breakpoints: DebugProtocol.Breakpoint[] } | undefined>,
): Promise<void> {
  const book = session.spec.book;
  try {
    const body = await send();
    book.apply(entries, body?.breakpoints ?? []);
  } catch (error) {
    // The adapter's refusal or a request that failed (a DebugError) is the breakpoints' message; anything else is a
    // bug (ours, or a hook's of the adapter configuration), told once as well. The breakpoints read as not set either
    // way: the adapter may not have them.
    if (!AgentToolsError.isInstance(error)) session.spec.background.report(error);
    const message = errorDetail(error);
    book.apply(
      entries,
      sent.map(() => ({ verified: false, message })),
    );
    if (isDebugError(error, 'adapter_exited')) throw error;
  }
}

function conditionsOf(session: ConfigurableSession, entry: BreakpointConditions): BreakpointConditions {
  const hits = hitTranslation(session, entry);
  return {
    ...(entry.condition !== undefined ? { condition: entry.condition } : {}),
    ...(hits && 'text' in hits ? { hitCondition: hits.text } : {}),
    ...(entry.logMessage !== undefined ? { logMessage: entry.logMessage } : {}),
  };
}
