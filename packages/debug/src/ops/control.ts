import { statSync } from 'node:fs';
import { resolve } from 'node:path';
import { AgentToolsError, resolveInside, type ToolResult, textResult } from '@agent-tools/core';
import { findExecutable, formatLimit, isExecutable, notRegularFile, searchPath, specialFileKind } from '@agent-tools/core/internal';
import type { AdapterConfig } from '../adapters/adapter.js';
import { selectForAttach, selectForLaunch } from '../adapters/select.js';
import { DebugError, isDebugError } from '../errors.js';
import { showPath } from '../format/text.js';
import { probePort } from '../process/port-probe.js';
import { fetchThreads } from '../session/inspect.js';
import { ATTACH_LISTEN_MS, nothingListens } from '../session/nothing-listens.js';
import type { DebugSession } from '../session/session.js';
import {
  breakpointReport,
  describeSession,
  endAnswer,
  newOutput,
  type OpContext,
  requireSession,
  requireStopped,
  settleAnswer,
  threadOf,
} from './common.js';


/** How long `attach` waits for a first stop: an attached program is usually a server that keeps running. */
const ATTACH_WAIT_MS = 3000;

/** `launch`: start the program under the chosen adapter, stopped at the breakpoints. */
export async function launch(
  op: OpContext,
  program: string,
  args: readonly string[],
  adapterId: string | undefined,
  interpreter?: string,
): Promise<ToolResult> {
  const resolved = resolveInside(op.cwd, program, { mustExist: true });
  // A program is a file or a folder (a Go package); a FIFO would block whoever opens it first.
  const special = specialFileKind(statSync(resolved.absolute));
  if (special) throw notRegularFile(resolved.relative, special);
  const selection = { cwd: op.cwd, env: op.supervisor.env, signal: op.signal };
  // A running session is refused before the (slower) adapter lookup.
  const live = op.conversation.live;
  if (live) {
    throw new DebugError(
      'session_running',
      `A debug session is already running in this conversation: ${describeSession(live, op)}. Call terminate first to end it, or keep working with it.`,
    );
  }
  const selected = await selectForLaunch(op.supervisor.adapters, resolved.absolute, selection, adapterId);
  const python = interpreter === undefined ? undefined : interpreterPath(op, interpreter, selected.config);
  const session = await op.conversation.start(
    { selected, mode: 'launch', program: resolved.absolute, args, cwd: op.cwd, timeouts: op.supervisor.timeouts, ...(python ? { interpreter: python } : {}) },
    (s) => describeSession(s, op),
    op.signal,
  );
  const runsUnder = selected.config.runsUnder?.({ program: resolved.absolute, root: selected.root, hints: selected.located.hints ?? {}, ...(python ? { interpreter: python } : {}) });
  const lead = [
    `Launched ${resolved.relative}${args.length ? ` ${JSON.stringify(args)}` : ''} with ${selected.config.id} (${selected.located.summary}), in ${selected.root === op.cwd ? 'the working directory' : showPath(selected.root, op.cwd)}.${runsUnder ? ` The program runs under ${runsUnder}.` : ''}`,
    laterReport(op, session),
  ];
  const answer = await settleAnswer(op, session, lead);
  // A cancelled launch answers nobody (an MCP client drops the result): a debuggee the model never learnt of must not
  // keep running, so the session it started ends with the call.
  if (op.signal.aborted && !session.ending) await session.shutdown({ kind: 'terminated' }, true);
  return answer;
}

/** The `python` argument as an executable path: a path relative to the working directory, or a name on PATH. */
function interpreterPath(op: OpContext, interpreter: string, config: AdapterConfig): string {
  if (!config.takesInterpreter) {
    throw new DebugError('invalid_argument', `python chooses the interpreter of a Python program; the ${config.id} adapter takes none. Leave python out.`);
  }
  const path = interpreter.includes('/') ? resolve(op.cwd, interpreter) : findExecutable(interpreter, searchPath(op.supervisor.env));
  if (!path || !isExecutable(path)) {
    throw new DebugError(
      'invalid_argument',
      `python ${interpreter} is not an executable${interpreter.includes('/') ? ' file' : ' on PATH'}: pass the interpreter's path (".venv/bin/python", "/usr/bin/python3") or leave python out for the project's own.`,
    );
  }
  return path;
}

/**
 * The breakpoint report as it stands when the answer is written (js-debug binds breakpoints only once a process loads
 * the file), or as it stood at the start when the session has ended meanwhile (its end resets them to pending).
 */
function laterReport(op: OpContext, session: DebugSession): () => string {
  const early = breakpointReport(op);
  return () => (session.ending ? early : breakpointReport(op));
}

/** `attach`: connect to a debuggee already listening on a loopback port. */
export async function attach(op: OpContext, port: number, adapterId: string | undefined): Promise<ToolResult> {
  const live = op.conversation.live;
  if (live) {
    throw new DebugError(
      'session_running',
      `A debug session is already running in this conversation: ${describeSession(live, op)}. Call terminate first to end it.`,
    );
  }
  const selected = await selectForAttach(op.supervisor.adapters, { cwd: op.cwd, env: op.supervisor.env, signal: op.signal }, adapterId);
  // Checked before anything starts where the listener allows it: js-debug left to find a closed port itself
  // retries for 10 s and then says only ECONNREFUSED. A `connect` attach tries the port itself, as briefly.
  if (selected.config.attach?.probe) {
    const probe = await probePort(port, ATTACH_LISTEN_MS);
    if (!probe.listening) throw nothingListens(port, probe.triedMs, probe.error, selected.config);
  }
  const started = Date.now();
  const session = await op.conversation
    .start({ selected, mode: 'attach', port, args: [], cwd: op.cwd, timeouts: op.supervisor.timeouts }, (s) => describeSession(s, op), op.signal)
    .catch(async (error: unknown) => {
      // An adapter that found the port closed (lldb-dap: "Failed to connect port" after 5 s) says nothing of what to
      // start; once it has failed, one try of the port tells whether anything listens there at all.
      if (!isDebugError(error) || selected.config.attach?.via !== 'adapter' || selected.config.attach.probe) throw error;
      const probe = await probePort(port, 0);
      if (probe.listening || probe.error !== 'ECONNREFUSED') throw error;
      throw nothingListens(port, Date.now() - started, `ECONNREFUSED; the ${selected.config.id} adapter said: ${error.detail}`, selected.config);
    });
  const lead = [`Attached ${selected.config.id} to the debuggee on 127.0.0.1:${port}.`, laterReport(op, session)];
  return settleAnswer(op, session, lead, Math.min(ATTACH_WAIT_MS, op.supervisor.waitMs));
}

/** `continue`: resume and wait for the next stop; on a running program, wait again. */
export async function resume(op: OpContext, threadId: number | undefined): Promise<ToolResult> {
  const session = requireSession(op);
  if (session.state === 'stopped') {
    await session.resume('continue', threadOf(session, threadId));
    return settleAnswer(op, session);
  }
  return settleAnswer(op, session, ['The program was already running; waited for it to stop.']);
}

/** `step_over`, `step_in`, `step_out`: one step, answered with the new location. */
export async function step(op: OpContext, kind: 'next' | 'stepIn' | 'stepOut', threadId: number | undefined): Promise<ToolResult> {
  const session = requireStopped(op);
  await session.resume(kind, threadOf(session, threadId));
  return settleAnswer(op, session);
}

/** `pause`: stop a running program where it is; a stopped one is left alone and the answer says so. */
export async function pause(op: OpContext, threadId: number | undefined): Promise<ToolResult> {
  const session = requireSession(op);
  const stop = session.stop;
  if (stop) {
    return textResult(
      `The program is already stopped (${stop.reason}, thread ${stop.threadId ?? '?'}); nothing to pause. Call stack to see where, or continue to run it.`,
      { state: 'stopped', alreadyStopped: true },
    );
  }
  const thread = threadId ?? session.lastThreadId ?? (await fetchThreads(session))[0]?.id;
  if (thread === undefined) throw new DebugError('invalid_argument', 'The debuggee reports no threads to pause; call threads and pass thread_id.');
  await session.pause(thread);
  const waitMs = op.supervisor.timeouts.requestMs;
  return settleAnswer(
    op,
    session,
    [],
    waitMs,
    `The pause was requested, but the program has not stopped within ${formatLimit(waitMs)}: a thread blocked in a call (sleep, I/O, native code) stops only when that call returns. Call continue to keep waiting for it, or terminate.`,
  );
}

/** `terminate`: end the session, killing the adapter and a launched program (an attached one is left running). */
export async function terminate(op: OpContext): Promise<ToolResult> {
  const session = op.conversation.live;
  if (!session) {
    const last = op.conversation.session;
    return textResult(`No debug session is running in this conversation; nothing to terminate.${last?.end ? ' The last one has already ended.' : ''}`, {
      state: 'none',
    });
  }
  const described = describeSession(session, op);
  await session.shutdown(session.spec.mode === 'launch' ? { kind: 'terminated' } : { kind: 'detached' }, true);
  const output = newOutput(session);
  const lead = session.spec.mode === 'launch' ? `Terminated ${described}.` : `Detached from ${described}; the debuggee keeps running.`;
  return textResult([lead, output, 'The adapter and its processes are gone; your breakpoints are kept.'].filter(Boolean).join('\n'), {
    state: 'ended',
    end: session.end,
  });
}

/** Runs an op and turns a session that died under it into the answer about its end. */
export async function guarded(op: OpContext, run: () => Promise<ToolResult>): Promise<ToolResult> {
  const before = op.conversation.live;
  try {
    return await run();
  } catch (error) {
    // A crashed adapter fails the request at once; the session learns how the process ended a moment later.
    if (before && isDebugError(error, 'adapter_exited')) await waitFor(() => before.ending, 2000);
    // A bug is not the session's end: it goes on to the registry, which reports it to the harness's onError.
    if (before?.ending && AgentToolsError.isInstance(error)) return endAnswer(before);
    throw error;
  }
}

async function waitFor(condition: () => boolean, ms: number): Promise<void> {
  const deadline = Date.now() + ms;
  while (!condition() && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
}
