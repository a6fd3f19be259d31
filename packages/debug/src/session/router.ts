import { rethrowUnexpected } from '@agent-tools/core/internal';
import type { DapConnection, RequestOptions } from '../dap/connection.js';
import type { DapCommand, DapEvent, DapRequests, DebugProtocol } from '../dap/protocol.js';
import { DebugError } from '../errors.js';

/**
 * One DAP session on an adapter that serves several (js-debug): the first connection, which supervises, or a child
 * session it announced with `startDebugging` (a Node process, a worker thread).
 */
export interface Target {
  readonly index: number;
  /** The name the adapter gave it ("app.js [1234]", "[worker 1]"). */
  readonly name: string;
  readonly connection: DapConnection;
  capabilities: DebugProtocol.Capabilities;
  ended: boolean;
}

/** Id kinds that each session numbers on its own (js-debug starts frames and references at 0 in every one). */
type Domain = 'frame' | 'ref' | 'source' | 'bp';

/** Commands sent to every session: each one binds the breakpoints in the code it runs. */
const BROADCAST = new Set<DapCommand>(['setBreakpoints', 'setFunctionBreakpoints', 'setExceptionBreakpoints']);
/** Commands of the supervising session (the first connection). */
const ROOT = new Set<DapCommand>(['initialize', 'launch', 'attach', 'configurationDone', 'disconnect']);

/**
 * Routes the requests of one debug session to the DAP session that owns what they name, and gives frames, variable
 * references, source references and breakpoint ids one number space across sessions. Thread ids are js-debug's own:
 * its server numbers threads across all its sessions, so the model sees the ids js-debug reports.
 */
export class TargetRouter {
  readonly targets: Target[] = [];
  /** The session of the last stop: evaluate without a frame goes there. */
  focus: Target | undefined;
  readonly #threads = new Map<number, Target>();
  readonly #toGlobal = new Map<string, number>();
  readonly #toLocal = new Map<number, { readonly target: Target; readonly local: number }>();
  #next = 1;

  /** Adds a session (the first one added is the supervising one). */
  add(name: string, connection: DapConnection, capabilities: DebugProtocol.Capabilities = {}): Target {
    const target: Target = { index: this.targets.length, name, connection, capabilities, ended: false };
    this.targets.push(target);
    return target;
  }

  /** Marks a session ended and forgets its threads. */
  remove(target: Target): void {
    target.ended = true;
    for (const [id, owner] of this.#threads) if (owner === target) this.#threads.delete(id);
    if (this.focus === target) this.focus = undefined;
  }

  /** The live child sessions. */
  get children(): Target[] {
    return this.targets.filter((t) => t.index > 0 && !t.ended);
  }

  /** The session a thread belongs to, when known. */
  ownerOf(threadId: number): Target | undefined {
    return this.#threads.get(threadId);
  }

  /** Sends a request where it belongs and answers in the shared number space. */
  async request<C extends DapCommand>(command: C, args: DapRequests[C]['args'], options: RequestOptions): Promise<DapRequests[C]['body']> {
    const root = this.targets[0];
    if (!root) throw new DebugError('no_session', 'The debug adapter has not started.');
    if (ROOT.has(command)) return root.connection.request(command, args, options);
    if (command === 'threads') return (await this.#threadsOfAll(options)) as DapRequests[C]['body'];
    if (BROADCAST.has(command)) return this.#broadcast(command, args, options);
    const { target, local } = this.#route(command, args);
    return this.requestOn(target, command, local as DapRequests[C]['args'], options);
  }

  /**
   * Sends a request (in that session's own ids) to one session; the answer's ids come back in the shared space.
   * `breakpointIds` are the shared ids the answered breakpoints already have (by position): each session numbers its
   * own breakpoints, and one breakpoint bound in several processes keeps one id.
   */
  async requestOn<C extends DapCommand>(
    target: Target,
    command: C,
    args: DapRequests[C]['args'],
    options: RequestOptions,
    breakpointIds: readonly (number | undefined)[] = [],
  ): Promise<DapRequests[C]['body']> {
    const body = await target.connection.request(command, args, options);
    return this.#globalBody(target, command, body, breakpointIds) as DapRequests[C]['body'];
  }

  /** An event of one session in the shared number space; records which session owns a thread. */
  translateEvent(target: Target, event: DapEvent): DapEvent {
    switch (event.event) {
      case 'stopped': {
        const body = event.body;
        if (body.threadId !== undefined) this.#threads.set(body.threadId, target);
        this.focus = target;
        const hit = body.hitBreakpointIds?.map((id) => this.#global('bp', target, id));
        return { event: 'stopped', body: { ...body, ...(hit ? { hitBreakpointIds: hit } : {}) } };
      }
      case 'thread':
        if (event.body.reason === 'started') this.#threads.set(event.body.threadId, target);
        else if (event.body.reason === 'exited' && this.#threads.get(event.body.threadId) === target) this.#threads.delete(event.body.threadId);
        return event;
      case 'breakpoint': {
        const bp = event.body.breakpoint;
        return { event: 'breakpoint', body: { ...event.body, breakpoint: this.#globalBreakpoint(target, bp) } };
      }
      default:
        return event;
    }
  }

  async #threadsOfAll(options: RequestOptions): Promise<DebugProtocol.ThreadsResponse['body']> {
    const live = this.targets.filter((t) => !t.ended);
    const answers = await Promise.all(
      live.map((target) =>
        target.connection
          .request('threads', undefined, options)
          .then((body) => ({ target, threads: body?.threads ?? [] }))
          // A session that does not answer (a DebugError) lists no threads; a bug propagates.
          .catch((error: unknown) => {
            rethrowUnexpected(error);
            return { target, threads: [] as DebugProtocol.Thread[] };
          }),
      ),
    );
    const threads: DebugProtocol.Thread[] = [];
    for (const { target, threads: own } of answers) {
      for (const thread of own) {
        this.#threads.set(thread.id, target);
        threads.push(thread);
      }
    }
    return { threads };
  }

  /**
   * Sends breakpoints to every live session and merges the answers: a breakpoint counts as verified when one session
   * bound it (the parent process may never load a file its worker runs).
   */
  async #broadcast<C extends DapCommand>(command: C, args: DapRequests[C]['args'], options: RequestOptions): Promise<DapRequests[C]['body']> {
    const live = this.targets.filter((t) => !t.ended);
    const settled = await Promise.allSettled(live.map((target) => target.connection.request(command, args, options).then((body) => ({ target, body }))));
    const raw = settled.flatMap((s) => (s.status === 'fulfilled' ? [s.value] : []));
    if (raw.length === 0) throw (settled[0] as PromiseRejectedResult).reason;
    // The first session to answer numbers each breakpoint; the others' numbers for it become aliases of that one.
    let shared: (number | undefined)[] = [];
    const answers = raw.map(({ target, body }) => {
      const translated = this.#globalBody(target, command, body, shared) as { breakpoints?: DebugProtocol.Breakpoint[] } | undefined;
      if (shared.length === 0 && translated?.breakpoints) shared = translated.breakpoints.map((bp) => bp.id);
      return { target, body: translated };
    });
    const lists = answers.filter((a): a is { target: Target; body: { breakpoints: DebugProtocol.Breakpoint[] } } => Array.isArray(a.body?.breakpoints));
    if (lists.length === 0) return answers[0]?.body as DapRequests[C]['body'];
    // The supervising session only keeps them for sessions to come; the children's answers say what bound.
    const children = lists.filter((a) => a.target.index > 0);
    return { breakpoints: mergeBreakpoints((children.length > 0 ? children : lists).map((a) => a.body)) } as DapRequests[C]['body'];
  }

  /** The session a request belongs to and its arguments in that session's ids. */
  #route(command: DapCommand, args: unknown): { target: Target; local: unknown } {
    const a = (args ?? {}) as Record<string, unknown>;
    if (typeof a['threadId'] === 'number') {
      const target = this.#threads.get(a['threadId']) ?? this.focus;
      if (!target) throw new DebugError('invalid_argument', `Thread ${a['threadId']} is not known; call threads for the current thread ids.`);
      return { target, local: args };
    }
    if (typeof a['frameId'] === 'number') {
      const owner = this.#local('frame', a['frameId']);
      return { target: owner.target, local: { ...a, frameId: owner.local } };
    }
    if (typeof a['variablesReference'] === 'number') {
      const owner = this.#local('ref', a['variablesReference']);
      return { target: owner.target, local: { ...a, variablesReference: owner.local } };
    }
    if (command === 'source' && typeof a['sourceReference'] === 'number') {
      const owner = this.#local('source', a['sourceReference']);
      const source = a['source'] as DebugProtocol.Source | undefined;
      return { target: owner.target, local: { ...a, sourceReference: owner.local, ...(source ? { source: { ...source, sourceReference: owner.local } } : {}) } };
    }
    const target = this.focus ?? this.children[0] ?? this.targets[0];
    if (!target) throw new DebugError('no_session', 'The debug adapter has not started.');
    return { target, local: args };
  }

  #globalBody(target: Target, command: DapCommand, body: unknown, breakpointIds: readonly (number | undefined)[] = []): unknown {
    if (!body || typeof body !== 'object') return body;
    const b = body as Record<string, unknown>;
    switch (command) {
      case 'stackTrace':
        return {
          ...b,
          stackFrames: (b['stackFrames'] as DebugProtocol.StackFrame[]).map((f) => ({
            ...f,
            id: this.#global('frame', target, f.id),
            ...(f.source ? { source: this.#globalSource(target, f.source) } : {}),
          })),
        };
      case 'scopes':
        return {
          ...b,
          scopes: (b['scopes'] as DebugProtocol.Scope[]).map((s) => ({ ...s, variablesReference: this.#ref(target, s.variablesReference) })),
        };
      case 'variables':
        return {
          ...b,
          variables: (b['variables'] as DebugProtocol.Variable[]).map((v) => ({ ...v, variablesReference: this.#ref(target, v.variablesReference) })),
        };
      case 'evaluate':
        return { ...b, variablesReference: this.#ref(target, b['variablesReference'] as number) };
      case 'setBreakpoints':
      case 'setFunctionBreakpoints':
        return {
          ...b,
          breakpoints: (b['breakpoints'] as DebugProtocol.Breakpoint[] | undefined)?.map((bp, i) => this.#globalBreakpoint(target, bp, breakpointIds[i])),
        };
      default:
        return body;
    }
  }

  #globalBreakpoint(target: Target, bp: DebugProtocol.Breakpoint, shared?: number): DebugProtocol.Breakpoint {
    if (bp.id !== undefined && shared !== undefined) this.#alias('bp', target, bp.id, shared);
    // js-debug answers with a message key for a breakpoint whose file no process has loaded yet.
    const pending =
      !bp.verified && bp.message === 'breakpoint.provisionalBreakpoint'
        ? { reason: 'pending' as const, message: 'it binds when a process loads this file (none has yet)' }
        : {};
    return { ...bp, ...pending, ...(bp.id === undefined ? {} : { id: this.#global('bp', target, bp.id) }) };
  }

  #globalSource(target: Target, source: DebugProtocol.Source): DebugProtocol.Source {
    return source.sourceReference ? { ...source, sourceReference: this.#global('source', target, source.sourceReference) } : source;
  }

  /** 0 means "no children" in the DAP and stays 0. */
  #ref(target: Target, local: number | undefined): number {
    return local ? this.#global('ref', target, local) : 0;
  }

  #global(domain: Domain, target: Target, local: number): number {
    const key = `${domain}:${target.index}:${local}`;
    let id = this.#toGlobal.get(key);
    if (id === undefined) {
      id = this.#next++;
      this.#toGlobal.set(key, id);
      this.#toLocal.set(id, { target, local });
    }
    return id;
  }

  /** Makes a session's own id stand for an existing shared one (the same breakpoint in another process). */
  #alias(domain: Domain, target: Target, local: number, global: number): void {
    this.#toGlobal.set(`${domain}:${target.index}:${local}`, global);
  }

  #local(domain: Domain, global: number): { target: Target; local: number } {
    const found = this.#toLocal.get(global);
    if (!found || found.target.ended) {
      const what = domain === 'frame' ? `Frame ${global}` : domain === 'ref' ? `Reference ${global}` : `Source reference ${global}`;
      throw new DebugError('stale_reference', `${what} belongs to no running session (its process or worker has ended); call stack again.`);
    }
    return found;
  }
}

/** Per breakpoint, the first answer that bound it, else the first answer. */
export function mergeBreakpoints(answers: readonly { breakpoints: DebugProtocol.Breakpoint[] }[]): DebugProtocol.Breakpoint[] {
  const length = Math.max(...answers.map((a) => a.breakpoints.length));
  const merged: DebugProtocol.Breakpoint[] = [];
  for (let i = 0; i < length; i++) {
    const options = answers.map((a) => a.breakpoints[i]).filter((bp): bp is DebugProtocol.Breakpoint => bp !== undefined);
    merged.push(options.find((bp) => bp.verified) ?? (options[0] as DebugProtocol.Breakpoint));
  }
  return merged;
}
