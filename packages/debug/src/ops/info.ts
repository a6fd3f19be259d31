import { resolveInside, type ToolResult, textResult } from '@agent-tools/core';
import { formatDuration } from '@agent-tools/core/internal';
import { describeAdapters } from '../adapters/select.js';
import { DebugError } from '../errors.js';
import { breakpointLine, exceptionLine, functionBreakpointLine } from '../format/breakpoints.js';
import { outputView } from '../format/output.js';
import { showPath } from '../format/text.js';
import type { ExceptionRequest, FunctionRequest, LineRequest } from '../session/breakpoints.js';
import { sendExceptionBreakpoints, sendFunctionBreakpoints, sendLineBreakpoints } from '../session/configure.js';
import { breakpointReport, describeSession, endSentence, type OpContext, OUTPUT_CAPS } from './common.js';

/** `adapters`: each adapter, usable or not, and why. */
export async function adapters(op: OpContext): Promise<ToolResult> {
  const reports = await describeAdapters(op.supervisor.adapters, { cwd: op.cwd, env: op.supervisor.env, signal: op.signal });
  const blocks = reports.map((r) => {
    const head = `${r.id} (${r.languages}; launches ${r.launches || 'nothing by file type'}): ${r.usable ? 'usable' : 'not usable'}`;
    const lines = [head];
    if (r.command) lines.push(`  runs: ${r.command}`);
    for (const note of r.notes) lines.push(`  ${note}`);
    return lines.join('\n');
  });
  const usable = reports.filter((r) => r.usable).map((r) => r.id);
  const summary = usable.length ? `Usable here: ${usable.join(', ')}.` : 'No adapter is usable here.';
  return textResult(`${summary}\n${blocks.join('\n')}`, { adapters: reports });
}

/** `status`: the session (if any), where it stopped, how long it has left; the breakpoints. */
export async function status(op: OpContext): Promise<ToolResult> {
  const session = op.conversation.live;
  const lines: string[] = [];
  if (session) {
    const left = op.supervisor.ttlMs - (op.supervisor.clock.now() - session.spec.startedAt);
    lines.push(`Session: ${describeSession(session, op)}; ${formatDuration(left)} left before it is terminated.`);
    const children = session.childSessions;
    if (children.length > 0) lines.push(`Processes and workers being debugged (one child session each): ${children.join(', ')}; threads lists their thread ids.`);
    const stop = session.stop;
    if (stop) lines.push(`Stopped in thread ${stop.threadId ?? '?'} (${stop.reason}${stop.description ? `: ${stop.description}` : ''}); call stack for the frames.`);
    else lines.push('The program is running; call pause to stop it, or continue to wait for a breakpoint.');
  } else {
    const last = op.conversation.session;
    lines.push(`No debug session is running.${last?.end ? ` The last one: ${endSentence(last.end, last)}` : ''} Call launch to start one.`);
  }
  lines.push(breakpointReport(op));
  return textResult(lines.join('\n'), {
    running: session !== undefined,
    state: session?.state ?? 'none',
    stop: session?.stop,
    breakpoints: op.conversation.book.size,
  });
}

/** What a `breakpoints` call asks for; each part given replaces what it names. */
export interface BreakpointsRequest {
  readonly file?: string;
  readonly lines?: readonly LineRequest[];
  readonly functions?: readonly FunctionRequest[];
  readonly exceptions?: ExceptionRequest;
}

/**
 * `breakpoints`: replace a file's line breakpoints (empty clears), the function breakpoints, or where exceptions
 * stop; during a session each change is sent at once. With nothing to change, lists them all.
 */
export async function breakpoints(op: OpContext, request: BreakpointsRequest): Promise<ToolResult> {
  const { file, lines, functions, exceptions } = request;
  if (file === undefined && lines !== undefined) {
    throw new DebugError('invalid_argument', 'breakpoints needs file with lines; pass the source file the lines belong to.');
  }
  if (file !== undefined && lines === undefined) {
    throw new DebugError('invalid_argument', `breakpoints needs lines for ${file}: the 1-based line numbers to stop at, or [] to clear the file.`);
  }
  if (file === undefined && functions === undefined && exceptions === undefined) return textResult(breakpointReport(op));
  const book = op.conversation.book;
  const session = op.conversation.live;
  const configured = session && session.state !== 'starting' ? session : undefined;
  const options = { signal: op.signal };
  const cleared: string[] = [];
  const blocks: string[] = [];
  let shownFile: string | undefined;
  if (file !== undefined && lines !== undefined) {
    const resolved = resolveInside(op.cwd, file, { mustExist: true, kind: 'file' });
    shownFile = showPath(resolved.absolute, op.cwd);
    book.set(resolved.absolute, lines);
    if (configured) await sendLineBreakpoints(configured, resolved.absolute, options);
    const entries = book.get(resolved.absolute);
    if (entries.length === 0) cleared.push(`Cleared the breakpoints in ${shownFile}.`);
    else blocks.push(`Breakpoints in ${shownFile}:\n${entries.map(breakpointLine).join('\n')}`);
  }
  if (functions !== undefined) {
    book.setFunctions(functions);
    if (configured) await sendFunctionBreakpoints(configured, options);
    if (book.functions.length === 0) cleared.push('Cleared the function breakpoints.');
    else blocks.push(`Function breakpoints:\n${book.functions.map(functionBreakpointLine).join('\n')}`);
  }
  if (exceptions !== undefined) {
    book.setExceptions(exceptions);
    if (configured) await sendExceptionBreakpoints(configured, options);
    const config = configured?.spec.selected.config;
    blocks.push(exceptionLine(book, config?.id, config?.exceptionNote) ?? 'Exceptions: ["uncaught"], the default.');
  }
  if (blocks.length > 0) {
    blocks.unshift(
      session
        ? `Sent to the running ${session.adapterId} session:`
        : 'No session yet: these are sent at launch, and the launch answer says which the adapter verified.',
    );
  }
  op.conversation.breakpointsReported = book.version;
  return textResult([...cleared, ...blocks].join('\n'), {
    ...(shownFile !== undefined ? { file: shownFile } : {}),
    breakpoints: book.files().map(([path, entries]) => ({ file: showPath(path, op.cwd), entries })),
    functions: book.functions,
  });
}

/** `output`: the newest part of the debuggee's output, capped. */
export async function output(op: OpContext): Promise<ToolResult> {
  const session = op.conversation.session;
  if (!session) throw new DebugError('no_session', 'No debug session has run in this conversation, so there is no output. Call launch first.');
  const view = outputView(session.output.since(0, OUTPUT_CAPS.read));
  session.reportedOutput = session.output.total;
  if (!view.text) return textResult(`The program has printed nothing${session.ending ? '' : ' yet'}.`, { total: 0 });
  const total = session.output.total;
  return textResult(`Program output (${view.note || `${total} characters`}):\n${view.text}`, { total, shown: view.text.length });
}
