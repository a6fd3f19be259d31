import { resolveInside, textResult, type ToolResult } from '@agent-tools/core';
import { describeAdapters } from '../adapters/select.js';
import { DebugError } from '../errors.js';
import { breakpointLine, duration, showPath } from '../format/text.js';
import { breakpointReport, describeSession, endSentence, OUTPUT_CAPS, type OpContext } from './common.js';

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
    lines.push(`Session: ${describeSession(session, op)}; ${duration(left)} left before it is terminated.`);
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

/** `breakpoints`: replace a file's breakpoints (empty clears), or list all when no file is given. */
export async function breakpoints(op: OpContext, file: string | undefined, lines: readonly number[] | undefined): Promise<ToolResult> {
  if (file === undefined) {
    if (lines !== undefined) throw new DebugError('invalid_argument', 'breakpoints needs file with lines; pass the source file the lines belong to.');
    return textResult(breakpointReport(op));
  }
  if (lines === undefined) {
    throw new DebugError('invalid_argument', `breakpoints needs lines for ${file}: the 1-based line numbers to stop at, or [] to clear the file.`);
  }
  const resolved = resolveInside(op.cwd, file, { mustExist: true, kind: 'file' });
  const book = op.conversation.book;
  book.set(resolved.absolute, lines);
  const session = op.conversation.live;
  if (session && session.state !== 'starting') await session.sendBreakpoints(resolved.absolute, { signal: op.signal });
  const entries = book.get(resolved.absolute);
  const shown = showPath(resolved.absolute, op.cwd);
  if (entries.length === 0) return textResult(`Cleared the breakpoints in ${shown}.`, { file: shown, breakpoints: [] });
  const head = session
    ? `Breakpoints in ${shown} (sent to the running ${session.adapterId} session):`
    : `Breakpoints in ${shown} (no session yet: they are sent at launch, and the launch answer says which the adapter verified):`;
  return textResult(`${head}\n${entries.map(breakpointLine).join('\n')}`, { file: shown, breakpoints: entries });
}

/** `output`: the newest part of the debuggee's output, capped. */
export async function output(op: OpContext): Promise<ToolResult> {
  const session = op.conversation.session;
  if (!session) throw new DebugError('no_session', 'No debug session has run in this conversation, so there is no output. Call launch first.');
  const slice = session.output.since(0, OUTPUT_CAPS.read);
  session.reportedOutput = session.output.total;
  const text = slice.cut > 0 ? slice.text.slice(slice.text.indexOf('\n') + 1) : slice.text;
  if (!text) return textResult(`The program has printed nothing${session.ending ? '' : ' yet'}.`, { total: 0 });
  const note = slice.cut > 0 ? `the newest ${text.length} of ${slice.total} characters` : `${slice.total} characters`;
  return textResult(`Program output (${note}):\n${text}`, { total: slice.total, shown: text.length });
}
