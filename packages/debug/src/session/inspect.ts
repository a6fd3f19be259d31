import { capText, rethrowUnexpected } from '@agent-tools/core/internal';
import type { DebugProtocol } from '../dap/protocol.js';
import type { DebugSession } from './session.js';
import type { StopInfo } from './types.js';
import type { FrameView, SourceWindow, StopSnapshot, VariablesView, VariableView } from './views.js';

/** The caps of SPEC §6. */
export const CAPS = {
  frames: 30,
  variables: 50,
  valueChars: 400,
  /** Locals shown in a stop snapshot (the full list is one `variables` call away). */
  snapshotLocals: 20,
  threads: 50,
} as const;

/** The threads of the debuggee. */
export async function fetchThreads(session: DebugSession): Promise<DebugProtocol.Thread[]> {
  const threads = (await session.request('threads', undefined))?.threads ?? [];
  for (const thread of threads) session.threadNames.set(thread.id, thread.name);
  return threads;
}

/** The stack of a thread, capped; frame ids are recorded as live. */
export async function fetchStack(
  session: DebugSession,
  threadId: number,
  max: number = CAPS.frames,
): Promise<{ frames: FrameView[]; total?: number; more: boolean }> {
  // One frame more than shown tells whether there are more, for adapters that give no totalFrames.
  const body = await session.request('stackTrace', { threadId, startFrame: 0, levels: max + 1 });
  const all = body?.stackFrames ?? [];
  const frames = all.slice(0, max).map((frame) => {
    session.issue('frames', frame.id);
    return frameView(frame);
  });
  const total = body?.totalFrames && body.totalFrames >= all.length ? body.totalFrames : undefined;
  return { frames, ...(total !== undefined ? { total } : {}), more: all.length > max || (total ?? 0) > max };
}

/** The scopes of a frame; their references are recorded as live. */
export async function fetchScopes(session: DebugSession, frameId: number): Promise<DebugProtocol.Scope[]> {
  const scopes = (await session.request('scopes', { frameId }))?.scopes ?? [];
  for (const scope of scopes) session.issue('refs', scope.variablesReference);
  return scopes;
}

/** The children of a reference, capped, values cut at 400 characters; child references recorded as live. */
export async function fetchVariables(session: DebugSession, reference: number, max: number = CAPS.variables, known?: number): Promise<VariablesView> {
  const body = await session.request('variables', { variablesReference: reference, start: 0, count: max + 1 });
  const all = body?.variables ?? [];
  // debugpy opens every scope with "special variables", "function variables", ... groups: real values first.
  const items = all
    .slice(0, max)
    .map((v) => variableView(session, v))
    .sort((a, b) => Number(isGroup(a)) - Number(isGroup(b)));
  const total = known !== undefined && known >= all.length ? known : all.length <= max ? all.length : undefined;
  return { items, ...(total !== undefined ? { total } : {}), more: all.length > max || (known ?? 0) > max };
}

/** A DAP variable (or evaluate result) as a {@link VariableView}; its reference is recorded as live. */
export function variableView(
  session: DebugSession,
  v: { name: string; value: string; type?: string; variablesReference: number; namedVariables?: number; indexedVariables?: number },
): VariableView {
  if (v.variablesReference > 0) session.issue('refs', v.variablesReference);
  const children = (v.namedVariables ?? 0) + (v.indexedVariables ?? 0);
  return {
    name: v.name,
    value: capText(v.value, CAPS.valueChars),
    ...(v.type ? { type: v.type } : {}),
    ...(v.variablesReference > 0 ? { reference: v.variablesReference } : {}),
    ...(children > 0 ? { children } : {}),
  };
}

/** A few source lines around a frame's line: from disk, or from the adapter for sources without a file. */
export async function sourceWindow(
  session: DebugSession,
  frame: DebugProtocol.StackFrame,
  radius = 2,
): Promise<SourceWindow | undefined> {
  const path = frame.source?.path;
  let all = path?.startsWith('/') ? session.sources.lines(path) : undefined;
  const reference = frame.source?.sourceReference;
  if (all === undefined && reference) {
    all = (await session.request('source', { source: frame.source ?? {}, sourceReference: reference }).catch(refused(undefined)))?.content.split('\n');
  }
  if (all === undefined || frame.line < 1) return undefined;
  const first = Math.max(1, frame.line - radius);
  const last = Math.min(all.length, frame.line + radius);
  const lines = [];
  for (let n = first; n <= last; n++) lines.push({ number: n, text: capText((all[n - 1] ?? '').replace(/\r$/, ''), 200) });
  return { line: frame.line, lines };
}

/**
 * The answer to a stop: why, which thread, the top frame with source lines around it, its callers, and its
 * local variables (capped). Each part that fails is left out rather than failing the answer.
 */
export async function buildSnapshot(session: DebugSession): Promise<StopSnapshot> {
  const stop = session.stop ?? { reason: 'unknown', threadId: session.lastThreadId };
  // Each request is a round trip, so the snapshot asks for threads only when the stop did not name one; names
  // come from earlier `threads` answers.
  const threads = stop.threadId === undefined ? await fetchThreads(session).catch(refused([])) : [];
  const threadId = stop.threadId ?? threads[0]?.id;
  const threadName = threadId === undefined ? undefined : session.threadName(threadId);
  if (threadId === undefined) return { stop, threadId, callers: [] };

  // exceptionInfo needs only the thread, so it travels beside stackTrace; scopes and the source lines need the
  // top frame, and the locals need the scopes: that chain is the least a snapshot can wait for.
  const exceptionRequest =
    stop.reason === 'exception' && session.capabilities.supportsExceptionInfoRequest
      ? session.request('exceptionInfo', { threadId }).catch(refused(undefined))
      : undefined;
  const body = await session.request('stackTrace', { threadId, startFrame: 0, levels: 4 }).catch(refused(undefined));
  const raw = body?.stackFrames ?? [];
  for (const frame of raw) session.issue('frames', frame.id);
  const top = raw[0];
  const snapshot: { -readonly [K in keyof StopSnapshot]: StopSnapshot[K] } = {
    stop,
    threadId,
    ...(threadName ? { threadName } : {}),
    callers: raw.slice(1).map(frameView),
  };
  const hit = stop.hitBreakpointIds?.map((id) => session.spec.book.find(id)).find((found) => found !== undefined) ?? guessHit(session, stop, top);
  if (hit) snapshot.breakpoint = hit;
  if (top) {
    snapshot.frame = frameView(top);
    session.stopLocation = { line: top.line, name: top.name, ...(snapshot.frame.path ? { path: snapshot.frame.path } : {}) };
    const [source, scopes] = await Promise.all([sourceWindow(session, top), fetchScopes(session, top.id).catch(refused([]))]);
    if (source) snapshot.source = source;
    const locals = scopes.find((s) => s.presentationHint === 'locals') ?? scopes.find((s) => !s.expensive);
    if (locals) {
      const known = (locals.namedVariables ?? 0) + (locals.indexedVariables ?? 0) || undefined;
      const inner = blockScopes(scopes, locals);
      const [variables, ...more] = await Promise.all([
        fetchVariables(session, locals.variablesReference, CAPS.snapshotLocals, known).catch(refused(undefined)),
        ...inner.map((scope) => fetchVariables(session, scope.variablesReference, CAPS.snapshotLocals).catch(refused(undefined))),
      ]);
      if (variables) snapshot.locals = { scope: locals.name, reference: locals.variablesReference, variables };
      const shown = more.flatMap((view, i) => (view && inner[i] ? [{ scope: inner[i].name, reference: inner[i].variablesReference, variables: view }] : []));
      if (shown.length > 0) snapshot.moreLocals = shown;
    }
  }
  if (exceptionRequest) {
    const info = await exceptionRequest;
    if (info) {
      snapshot.exception = {
        id: info.exceptionId,
        ...(info.description ? { description: capText(info.description, 1000) } : {}),
        ...(info.details?.stackTrace ? { details: capText(info.details.stackTrace, 2000) } : {}),
      };
    }
  }
  return snapshot;
}

/**
 * js-debug splits a function's variables into block scopes ("Block: total" for a loop body) before the function's
 * own ("Local: total"): when the locals scope is a block, the scopes after it up to the function's are locals too.
 */
function blockScopes(scopes: readonly DebugProtocol.Scope[], first: DebugProtocol.Scope): DebugProtocol.Scope[] {
  if (!/^Block\b/.test(first.name)) return [];
  const more: DebugProtocol.Scope[] = [];
  for (const scope of scopes.slice(scopes.indexOf(first) + 1)) {
    if (scope.expensive || !/^(Block|Local)\b/.test(scope.name)) break;
    more.push(scope);
    if (/^Local\b/.test(scope.name)) break;
  }
  return more;
}

/** The breakpoint at the stop's location, for adapters that do not name it (debugpy sends no hitBreakpointIds). */
function guessHit(session: DebugSession, stop: StopInfo, top: DebugProtocol.StackFrame | undefined): StopSnapshot['breakpoint'] {
  if (!top) return undefined;
  const book = session.spec.book;
  if (stop.reason === 'function breakpoint') {
    const entry = book.functions.find((f) => f.state === 'verified' && (top.name === f.name || top.name.endsWith(`.${f.name}`)));
    return entry ? { entry } : undefined;
  }
  const path = top.source?.path;
  if (stop.reason !== 'breakpoint' || !path) return undefined;
  const entry = book.get(path).find((e) => e.state === 'verified' && (e.actualLine ?? e.line) === top.line);
  return entry ? { file: path, entry } : undefined;
}

/** A grouping node (debugpy's "special variables"): no value, only children. */
export function isGroup(v: VariableView): boolean {
  return v.value === '' && v.reference !== undefined && / variables$/.test(v.name);
}

function frameView(frame: DebugProtocol.StackFrame): FrameView {
  const path = frame.source?.path;
  return {
    id: frame.id,
    name: frame.name,
    ...(path ? { path } : frame.source?.name ? { path: frame.source.name } : {}),
    line: frame.line,
    ...(!path && !frame.source?.sourceReference ? { noSource: true } : {}),
    ...(frame.presentationHint === 'label' ? { label: true } : {}),
  };
}

/**
 * The catch of a request a snapshot can do without: the adapter refused it or did not answer (a DebugError), so that
 * part is left out; anything else is a bug and propagates to the registry.
 */
function refused<T>(fallback: T): (error: unknown) => T {
  return (error) => {
    rethrowUnexpected(error);
    return fallback;
  };
}
