import { errorResult, type ToolProgress, type ToolResult, textResult } from '@agent-tools/core';
import { capText, capTextTail, formatDuration, guardedInterval } from '@agent-tools/core/internal';
import { DebugError } from '../errors.js';
import { breakpointReport as formatBreakpoints, hitBreakpoint } from '../format/breakpoints.js';
import { outputView } from '../format/output.js';
import { frameLine, indent, location, showPath, sourceLines, variableLines } from '../format/text.js';
import type { ConversationDebugger } from '../session/conversation.js';
import { buildSnapshot } from '../session/inspect.js';
import type { DebugSession } from '../session/session.js';
import type { EndInfo } from '../session/types.js';
import type { FrameView, StopSnapshot } from '../session/views.js';
import type { DebugSupervisor } from '../supervisor.js';

/** What every op receives. */
export interface OpContext {
  readonly supervisor: DebugSupervisor;
  readonly conversation: ConversationDebugger;
  readonly cwd: string;
  readonly signal: AbortSignal;
  /** Tells the caller what a long wait is doing (the call's `ctx.reportProgress`). */
  readonly report?: (progress: ToolProgress) => void;
}

/** How often a wait for the program to stop says it is still running. */
const RUNNING_REPORT_MS = 1000;

/** New output shown in an answer, and in full by `output`. */
export const OUTPUT_CAPS = { answer: 2000, read: 4000 } as const;

/** The live session, or a `no_session` error that says how the last one ended. */
export function requireSession(op: OpContext): DebugSession {
  const live = op.conversation.live;
  if (live) return live;
  const last = op.conversation.session;
  const why = last?.end ? ` The last session: ${endSentence(last.end, last)}` : '';
  throw new DebugError('no_session', `No debug session is running in this conversation.${why} Call launch (or attach) to start one.`);
}

/** The live session while the program is stopped; otherwise a `not_stopped` error saying what to call. */
export function requireStopped(op: OpContext): DebugSession {
  const session = requireSession(op);
  if (session.state !== 'stopped') {
    throw new DebugError(
      'not_stopped',
      'The program is running, so there is no stack or frame to inspect. Call pause to stop it where it is, or continue to wait for a breakpoint.',
    );
  }
  return session;
}

/** The thread a call means: the given one, else the thread of the last stop. */
export function threadOf(session: DebugSession, threadId: number | undefined): number {
  const thread = threadId ?? session.stop?.threadId ?? session.lastThreadId;
  if (thread === undefined) throw new DebugError('invalid_argument', 'No thread is known yet; call threads and pass thread_id.');
  return thread;
}

/** One line naming a session: adapter, program, age, where it is. */
export function describeSession(session: DebugSession, op: OpContext): string {
  const { spec } = session;
  const what = spec.mode === 'launch' ? showPath(spec.program, op.cwd) : `a debuggee on port ${spec.port}`;
  const age = formatDuration(op.supervisor.clock.now() - spec.startedAt);
  const at = session.stopLocation;
  const place = at ? ` in ${at.name} at ${at.path ? `${showPath(at.path, op.cwd)}:${at.line}` : 'a frame without source'}` : '';
  const where = session.stop ? `stopped (${session.stop.reason})${place}` : session.state;
  return `${session.adapterId} on ${what}, started ${age} ago, ${where}`;
}

/** How a session ended, as a sentence. */
export function endSentence(end: EndInfo, session: DebugSession): string {
  switch (end.kind) {
    case 'exited':
      if (session.spec.mode === 'attach' && end.exitCode === undefined) return 'The debuggee ended or the adapter detached from it.';
      return end.exitCode === undefined
        ? 'The program exited (the adapter did not report an exit code).'
        : `The program exited with code ${end.exitCode}.`;
    case 'terminated':
      return 'The session was terminated: the program and the adapter were killed.';
    case 'detached':
      return 'The session detached from the debuggee, which keeps running; the adapter was stopped.';
    case 'crashed':
      return `The debug adapter died unexpectedly (${end.detail}). The session has ended and its processes were killed.`;
    case 'expired':
      return 'The session reached its time limit and was terminated.';
    case 'disposed':
      return 'The run ended, and with it the session.';
    case 'failed':
      return `The session failed to start: ${end.detail}`;
  }
}

/** Output that arrived since the last answer, capped, and marked as reported; then the adapter's warnings. */
export function newOutput(session: DebugSession, max: number = OUTPUT_CAPS.answer): string {
  const view = outputView(session.output.since(session.reportedOutput, max));
  session.reportedOutput = session.output.total;
  const warnings = adapterWarnings(session);
  if (!view.text) return warnings;
  const note = view.note ? ` (${view.note}; call output for up to ${OUTPUT_CAPS.read})` : '';
  const output = `Program output since the last answer${note}:\n${indent(view.text.replace(/\n$/, ''), '  | ')}`;
  return warnings ? `${output}\n${warnings}` : output;
}

/** The adapter's important messages since the last answer (a breakpoint condition it could not evaluate), each once. */
function adapterWarnings(session: DebugSession): string {
  const warnings = session.takeWarnings();
  if (warnings.length === 0) return '';
  const text = warnings.map((w) => (w.count > 1 ? `${w.count} times: ${w.text}` : w.text)).join('\n');
  return `The ${session.adapterId} adapter warned:\n${indent(capText(text, OUTPUT_CAPS.answer), '  ! ')}`;
}

/**
 * Waits for the program to stop or end (at most the supervisor's wait) and answers with the snapshot, the
 * exit, or "still running". `lead` comes first.
 */
export async function settleAnswer(
  op: OpContext,
  session: DebugSession,
  lead: (string | (() => string))[] = [],
  waitMs = op.supervisor.waitMs,
  stillRunning = `The program is still running after ${Math.round(waitMs / 1000)} s (no breakpoint was hit). Call continue to keep waiting, pause to stop it where it is, or output to see what it printed.`,
): Promise<ToolResult> {
  const stopReporting = reportRunning(op, session);
  const settled = await session.settle(waitMs, op.signal).finally(stopReporting);
  // Parts of the lead given as functions are read now: a breakpoint report says what the adapter bound by the stop.
  const head = lead.map((part) => (typeof part === 'function' ? part() : part));
  return settledAnswer(op, session, settled, head, stillRunning);
}

async function settledAnswer(op: OpContext, session: DebugSession, state: string, lead: string[], stillRunning: string): Promise<ToolResult> {
  if (state === 'stopped') {
    const snapshot = await buildSnapshot(session);
    return textResult(
      [...lead, breakpointNews(op), formatSnapshot(snapshot, op.cwd), newOutput(session)].filter(Boolean).join('\n'),
      { state: 'stopped', snapshot },
    );
  }
  if (state === 'ended') return endAnswer(session, lead);
  return textResult(
    [...lead, breakpointNews(op), stillRunning, newOutput(session)]
      .filter(Boolean)
      .join('\n'),
    { state: 'running' },
  );
}

/**
 * While a call waits for the program to stop, says every second that it is still running, with what it printed
 * since the last answer (left unreported: the answer still shows it). Returns the function that stops it.
 */
function reportRunning(op: OpContext, session: DebugSession): () => void {
  const report = op.report;
  if (!report) return () => undefined;
  const started = Date.now();
  // Nothing here is expected to throw (the registry guards the harness's progress listener): a throw is a bug, told
  // once on the session's background path, and the reports stop.
  const timer = guardedInterval(
    () => {
      const running = formatDuration(Date.now() - started);
      const printed = session.output.since(session.reportedOutput, OUTPUT_CAPS.answer).text.replace(/\n$/, '');
      report({ message: `program still running after ${running}; no breakpoint hit yet`, ...(printed ? { output: printed } : {}) });
    },
    RUNNING_REPORT_MS,
    (error) => session.spec.background.report(error),
  );
  return () => clearInterval(timer);
}

/** The answer for a session that has ended: how, the output tail, and what to do next. */
export async function endAnswer(session: DebugSession, lead: string[] = []): Promise<ToolResult> {
  const end = session.end ?? (await session.whenEnded()) ?? { kind: 'terminated' as const };
  const text = [
    ...lead,
    endSentence(end, session),
    newOutput(session, OUTPUT_CAPS.read),
    'The session has ended; your breakpoints are kept for the next launch.',
  ]
    .filter(Boolean)
    .join('\n');
  const structured = { state: 'ended', end };
  return end.kind === 'crashed' || end.kind === 'failed' ? errorResult(text, structured) : textResult(text, structured);
}

/** A stop snapshot as text. */
export function formatSnapshot(s: StopSnapshot, cwd: string): string {
  const lines: string[] = [];
  // An exception's own line says what it was; the stop reason stays short.
  const why = s.exception ? 'on an exception' : stopReason(s);
  const thread = s.threadId !== undefined ? `, thread ${s.threadId}${s.threadName ? ` "${s.threadName}"` : ''}` : '';
  if (s.frame) lines.push(`Stopped ${why} in ${s.frame.name}${s.frame.noSource ? ' (no source)' : ` at ${location(s.frame, cwd)}`}${thread}.`);
  else lines.push(`Stopped ${why}${thread} (no stack frame available).`);
  if (s.exception) {
    const head = [s.exception.id, s.exception.description].filter(Boolean).join(': ');
    if (head) lines.push(`Exception: ${head}`);
  }
  if (s.source) lines.push(sourceLines(s.source));
  if (s.callers.length > 0) {
    // js-debug marks an async boundary with a label frame ("await"): it says where the chain crossed one.
    const caller = (f: FrameView): string => (f.label ? `[async: ${f.name}]` : f.noSource ? `${f.name} (no source)` : `${f.name} (${location(f, cwd)})`);
    lines.push(`Called from: ${s.callers.map(caller).join(' ← ')}`);
  }
  if (s.frame) lines.push(`Frame id ${s.frame.id} (for scopes and evaluate).`);
  if (s.locals) {
    lines.push(`${s.locals.scope} (reference ${s.locals.reference}):`);
    lines.push(variableLines(s.locals.variables, s.locals.reference));
  }
  for (const more of s.moreLocals ?? []) {
    lines.push(`${more.scope} (reference ${more.reference}):`);
    lines.push(variableLines(more.variables, more.reference));
  }
  return lines.join('\n');
}

function stopReason(s: StopSnapshot): string {
  const { reason, description, text } = s.stop;
  const base =
    reason === 'breakpoint'
      ? 'at a breakpoint'
      : reason === 'step'
        ? 'after the step'
        : reason === 'exception'
          ? 'on an exception'
          : reason === 'pause'
            ? 'by pause'
            : reason === 'entry'
              ? 'at entry'
              : `(${reason})`;
  const hit = s.breakpoint ? hitBreakpoint(s.breakpoint.entry) : undefined;
  if (hit && s.breakpoint && 'name' in s.breakpoint.entry) return `at function breakpoint ${hit}`;
  if (hit) return `at a breakpoint (${hit})`;
  if (reason === 'function breakpoint') return 'at a function breakpoint';
  // js-debug describes every stop as "Paused on breakpoint", "Paused on step": the reason already says it.
  const extra = [description, text].filter(
    (d) => d && !/^(breakpoint|step|pause|exception)\b/i.test(d) && !/^paused( on (breakpoint|step|exception|pause))?$/i.test(d) && d !== reason,
  );
  return extra.length > 0 ? `${base} (${extra.map((d) => capTextTail(d as string, 300)).join('; ')})` : base;
}

/**
 * Every breakpoint, the function breakpoints and the exception setting, as the running session's adapter sees
 * them; marks them as reported, so later answers repeat them only when something changed.
 */
export function breakpointReport(op: OpContext): string {
  const session = op.conversation.live;
  const config = session?.spec.selected.config;
  op.conversation.breakpointsReported = op.conversation.book.version;
  return formatBreakpoints(op.conversation.book, op.cwd, config ? { id: config.id, ...(config.exceptionNote ? { note: config.exceptionNote } : {}) } : undefined);
}

/** The breakpoint report when something changed since the last answer that showed it (a later verification). */
export function breakpointNews(op: OpContext): string {
  if (op.conversation.book.version === op.conversation.breakpointsReported) return '';
  return `Breakpoints changed since the last answer:\n${breakpointReport(op)}`;
}

export { frameLine };
