import { type ToolResult, textResult } from '@agent-tools/core';
import { capList, capText } from '@agent-tools/core/internal';
import { DebugError, isDebugError } from '../errors.js';
import { frameLine, variableLine, variableLines } from '../format/text.js';
import { CAPS, fetchScopes, fetchStack, fetchThreads, fetchVariables, variableView } from '../session/inspect.js';
import type { DebugSession } from '../session/session.js';
import { type OpContext, requireSession, requireStopped, threadOf } from './common.js';

/** `threads`: ids and names, the stopped one marked. */
export async function threads(op: OpContext): Promise<ToolResult> {
  const session = requireSession(op);
  const all = await fetchThreads(session);
  const capped = capList(all, CAPS.threads);
  const stopped = session.stop?.threadId;
  const lines = capped.items.map((t) => `  thread ${t.id}: ${t.name}${t.id === stopped ? '  (stopped here)' : ''}`);
  if (capped.note) lines.push(`  (${capped.note})`);
  return textResult(`Threads (${all.length}):\n${lines.join('\n') || '  (none)'}`, { threads: capped.items });
}

/** `stack`: frames of a thread, capped at 30, with the ids scopes and evaluate take. */
export async function stack(op: OpContext, threadId: number | undefined): Promise<ToolResult> {
  const session = requireStopped(op);
  const thread = threadOf(session, threadId);
  const { frames, total, more } = await fetchStack(session, thread);
  const lines = frames.map((f) => frameLine(f, op.cwd));
  if (more) lines.push(`  (${total !== undefined ? `${frames.length} of ${total}` : `the top ${frames.length}`} frames shown)`);
  return textResult(`Stack of thread ${thread}, innermost first:\n${lines.join('\n') || '  (empty)'}`, { threadId: thread, frames, total });
}

/** `scopes`: the frame's scopes with their references. */
export async function scopes(op: OpContext, frameId: number): Promise<ToolResult> {
  const session = requireStopped(op);
  requireLive(session, 'frames', frameId);
  const all = await fetchScopes(session, frameId);
  const lines = all.map((s) => {
    const count = (s.namedVariables ?? 0) + (s.indexedVariables ?? 0);
    return `  ${s.name}: reference ${s.variablesReference}${count ? ` (${count} variables)` : ''}${s.expensive ? ' (expensive to fetch)' : ''}`;
  });
  return textResult(`Scopes of frame ${frameId}:\n${lines.join('\n') || '  (none)'}\nCall variables with a reference to list them.`, { scopes: all });
}

/** `variables`: the children of a reference, capped at 50, values at 400 characters. */
export async function variables(op: OpContext, reference: number): Promise<ToolResult> {
  const session = requireStopped(op);
  requireLive(session, 'refs', reference);
  const view = await fetchVariables(session, reference);
  return textResult(`Variables of reference ${reference}:\n${variableLines(view, reference)}`, { reference, ...view });
}

/** `evaluate`: an expression in a frame (the top frame of the stopped thread by default). */
export async function evaluate(op: OpContext, expression: string, frameId: number | undefined): Promise<ToolResult> {
  const session = requireStopped(op);
  let frame = frameId;
  if (frame === undefined) {
    const top = (await fetchStack(session, threadOf(session, undefined), 1)).frames[0];
    if (!top) throw new DebugError('invalid_argument', 'The stopped thread has no frames to evaluate in; pass frame_id from stack.');
    frame = top.id;
  } else {
    requireLive(session, 'frames', frame);
  }
  const context = session.spec.selected.config.evaluateContext ?? 'repl';
  const body = await session.request('evaluate', { expression, frameId: frame, context }).catch((error: unknown) => {
    if (!isDebugError(error, 'request_failed')) throw error;
    // delve repeats its prefix ("Unable to evaluate expression: Unable to evaluate expression: …").
    const message = error.detail.replace(/([A-Z][^:]{2,60}: )\1+/g, '$1');
    const hint = session.spec.selected.config.evaluateHint?.(message);
    throw new DebugError('request_failed', hint ? `${message.replace(/\.?$/, '.')} Hint: ${hint}.` : message, { cause: error });
  });
  const view = variableView(session, { name: capText(expression, 200), value: body.result, variablesReference: body.variablesReference, ...pick(body) });
  return textResult(`In frame ${frame}: ${variableLine(view, '')}`, {
    frameId: frame,
    result: view,
  });
}

function pick(body: { type?: string; namedVariables?: number; indexedVariables?: number }): {
  type?: string;
  namedVariables?: number;
  indexedVariables?: number;
} {
  return {
    ...(body.type ? { type: body.type } : {}),
    ...(body.namedVariables ? { namedVariables: body.namedVariables } : {}),
    ...(body.indexedVariables ? { indexedVariables: body.indexedVariables } : {}),
  };
}

/** References and frame ids die when the program moves; a stale one is refused before the adapter misreads it. */
function requireLive(session: DebugSession, kind: 'refs' | 'frames', id: number): void {
  if (session.isLive(kind, id)) return;
  const what = kind === 'refs' ? `Reference ${id}` : `Frame ${id}`;
  const next = kind === 'refs' ? 'call stack or scopes again and use the references they give' : 'call stack for the current frame ids';
  throw new DebugError('stale_reference', `${what} is not from the current stop (the program has moved since, or it was never shown); ${next}.`);
}
