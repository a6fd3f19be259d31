import type { DebugProtocol } from '@vscode/debugprotocol';

/** What makes a breakpoint more than "stop here": each kind needs the adapter's support. */
export interface BreakpointConditions {
  /** Stop only when this expression (in the program's language) is true. */
  readonly condition?: string;
  /** Stop only when the hit count satisfies this ("3", ">= 5", "% 2": the adapter's syntax). */
  readonly hitCondition?: string;
  /** A logpoint: print this message (`{expr}` interpolated) to the program's output instead of stopping. */
  readonly logMessage?: string;
}

/** How a breakpoint stands. */
export interface BreakpointStatus {
  /**
   * `pending`: not sent yet (no session); `verified`: the adapter bound it to code; `unverified`: the adapter
   * could not bind it (yet), and `message` may say why; `unsupported`: not sent, because the adapter lacks a kind
   * it needs (`message` says which).
   */
  state: 'pending' | 'verified' | 'unverified' | 'unsupported';
  message?: string;
  /** Unverified only until code loads: the adapter said the binding is pending (DAP `reason: "pending"`). */
  awaitingCode?: boolean;
  id?: number;
}

/** One requested line breakpoint and what the adapter made of it. */
export interface BreakpointEntry extends BreakpointConditions, BreakpointStatus {
  /** The line the model asked for (1-based). */
  readonly line: number;
  /** Where the adapter actually placed it, when that differs from `line`. */
  actualLine?: number;
}

/** One function breakpoint (by the function's name) and what the adapter made of it. */
export interface FunctionBreakpointEntry extends BreakpointStatus {
  readonly name: string;
  readonly condition?: string;
  readonly hitCondition?: string;
}

/** A line breakpoint as requested. */
export type LineRequest = { readonly line: number } & BreakpointConditions;

/** A function breakpoint as requested. */
export type FunctionRequest = { readonly name: string; readonly condition?: string; readonly hitCondition?: string };

/**
 * Where the program stops on exceptions: `uncaught` (the default), `all` (wherever one is raised or thrown),
 * and the adapter's own filter ids; empty for nowhere. Which filters that means is decided at configuration
 * time, from what the adapter offers.
 */
export type ExceptionRequest = readonly string[];

/** What the adapter was asked to stop on for exceptions, once a session has configured it. */
export interface ExceptionStatus {
  /** The filters sent. */
  readonly applied: readonly string[];
  /** Every filter the adapter offers. */
  readonly offered: readonly DebugProtocol.ExceptionBreakpointsFilter[];
  /** Ids asked for that the adapter does not offer. */
  readonly unknown: readonly string[];
  /** The adapter refused the request. */
  readonly error?: string;
}

/**
 * The breakpoints of one conversation: line breakpoints by absolute file path, function breakpoints, and the
 * exception setting. They outlive sessions (set them before `launch`; they are sent again at the next launch) and
 * record what the adapter verified. `version` moves whenever a state changes, so answers can tell news apart.
 */
export class BreakpointBook {
  readonly #files = new Map<string, BreakpointEntry[]>();
  #functions: FunctionBreakpointEntry[] = [];
  #exceptions: ExceptionRequest = ['uncaught'];
  #exceptionStatus: ExceptionStatus | undefined;
  #version = 0;

  /** Moves whenever a breakpoint is set, verified, refused or reset. */
  get version(): number {
    return this.#version;
  }

  /** Replaces the breakpoints of `file`; an empty list clears it. A line asked twice keeps its last request. */
  set(file: string, requests: readonly LineRequest[]): BreakpointEntry[] {
    const byLine = new Map<number, LineRequest>();
    for (const request of requests) byLine.set(request.line, request);
    this.#version++;
    if (byLine.size === 0) {
      this.#files.delete(file);
      return [];
    }
    const entries = [...byLine.values()].sort((a, b) => a.line - b.line).map((r): BreakpointEntry => ({ ...r, state: 'pending' }));
    this.#files.set(file, entries);
    return entries;
  }

  /** The entries of one file. */
  get(file: string): readonly BreakpointEntry[] {
    return this.#files.get(file) ?? [];
  }

  /** Every file with breakpoints, in the order they were first set. */
  files(): [string, readonly BreakpointEntry[]][] {
    return [...this.#files.entries()];
  }

  /** Replaces the function breakpoints; an empty list clears them. */
  setFunctions(requests: readonly FunctionRequest[]): readonly FunctionBreakpointEntry[] {
    const byName = new Map<string, FunctionRequest>();
    for (const request of requests) byName.set(request.name, request);
    this.#functions = [...byName.values()].map((r) => ({ ...r, state: 'pending' }));
    this.#version++;
    return this.#functions;
  }

  /** The function breakpoints. */
  get functions(): readonly FunctionBreakpointEntry[] {
    return this.#functions;
  }

  /** Sets where exceptions stop the program (from the next configuration on). */
  setExceptions(request: ExceptionRequest): void {
    this.#exceptions = request;
    this.#exceptionStatus = undefined;
    this.#version++;
  }

  /** Where exceptions should stop the program. */
  get exceptions(): ExceptionRequest {
    return this.#exceptions;
  }

  /** What the running session's adapter was asked for exceptions (none before the first configuration). */
  get exceptionStatus(): ExceptionStatus | undefined {
    return this.#exceptionStatus;
  }

  /** Records the exception filters a session sent. */
  recordExceptions(status: ExceptionStatus): void {
    this.#changing(() => {
      this.#exceptionStatus = status;
    });
  }

  /** How many line and function breakpoints there are in all. */
  get size(): number {
    let count = this.#functions.length;
    for (const entries of this.#files.values()) count += entries.length;
    return count;
  }

  /**
   * Records a `setBreakpoints` (or `setFunctionBreakpoints`) answer. The adapter answers in request order for the
   * entries that were sent; `unsupported` entries were not sent and keep their state.
   */
  apply(entries: readonly (BreakpointEntry | FunctionBreakpointEntry)[], answered: readonly DebugProtocol.Breakpoint[]): void {
    const sent = entries.filter((e) => e.state !== 'unsupported');
    this.#changing(() =>
      sent.forEach((entry, index) => {
        const bp = answered[index];
        if (bp) record(entry, bp);
        else {
          entry.state = 'unverified';
          entry.message = 'the adapter did not answer for this breakpoint';
        }
      }),
    );
  }

  /** Marks entries as refused for want of a kind the adapter lacks; they are not sent. */
  refuse(entry: BreakpointEntry | FunctionBreakpointEntry, message: string): void {
    entry.state = 'unsupported';
    entry.message = message;
    delete entry.id;
    this.#version++;
  }

  /** The breakpoint an adapter id belongs to, with its file for a line breakpoint. */
  find(id: number): { readonly file?: string; readonly entry: BreakpointEntry | FunctionBreakpointEntry } | undefined {
    for (const [file, entries] of this.#files) {
      const entry = entries.find((e) => e.id === id);
      if (entry) return { file, entry };
    }
    const entry = this.#functions.find((e) => e.id === id);
    return entry ? { entry } : undefined;
  }

  /**
   * Whether console text is a logpoint's message: lldb-dap prints logpoints as console output (one event per hit),
   * beside its own chatter, so the text is matched against the templates of the logpoints set (`{expr}` matching
   * anything, over several lines too: an expression that fails prints a multi-line error in its place).
   */
  isLogpointMessage(text: string): boolean {
    const message = text.replace(/\r?\n$/, '');
    for (const entries of this.#files.values()) {
      for (const entry of entries) {
        if (entry.logMessage === undefined || entry.state === 'unsupported') continue;
        const pattern = entry.logMessage
          .split(/\{[^}]*\}/)
          .map((literal) => literal.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
          .join('[\\s\\S]*');
        if (new RegExp(`^${pattern}$`).test(message)) return true;
      }
    }
    return false;
  }

  /** Records a `breakpoint` event (an adapter verifying a breakpoint later, when its code loads). */
  update(bp: DebugProtocol.Breakpoint): void {
    if (bp.id === undefined) return;
    const all = [...[...this.#files.values()].flat(), ...this.#functions];
    const entry = all.find((e) => e.id === bp.id);
    if (!entry) return;
    this.#changing(() => record(entry, bp));
  }

  /** A stop at a breakpoint proves it bound, whatever the adapter answered when it was set (js-debug in an attach). */
  markHit(id: number): void {
    const found = this.find(id);
    if (!found || found.entry.state === 'verified' || found.entry.state === 'unsupported') return;
    found.entry.state = 'verified';
    delete found.entry.message;
    delete found.entry.awaitingCode;
    this.#version++;
  }

  /**
   * Runs an update from the adapter and moves `version` only when it changed what an answer shows: js-debug repeats
   * what it already said (a `breakpoint` event per process, the same answers from each child session), and each
   * repeat would otherwise print the unchanged report again as news.
   */
  #changing(update: () => void): void {
    const before = this.#shown();
    update();
    if (this.#shown() !== before) this.#version++;
  }

  #shown(): string {
    return JSON.stringify([[...this.#files], this.#functions, this.#exceptionStatus ?? null]);
  }

  /** Marks every breakpoint pending again (the session ended). */
  reset(): void {
    for (const entry of [...[...this.#files.values()].flat(), ...this.#functions]) {
      entry.state = 'pending';
      if ('actualLine' in entry) delete entry.actualLine;
      delete entry.message;
      delete entry.id;
      delete entry.awaitingCode;
    }
    this.#exceptionStatus = undefined;
    this.#version++;
  }
}

function record(entry: BreakpointEntry | FunctionBreakpointEntry, bp: DebugProtocol.Breakpoint): void {
  entry.state = bp.verified ? 'verified' : 'unverified';
  if (!bp.verified && bp.reason === 'pending') entry.awaitingCode = true;
  else delete entry.awaitingCode;
  if (bp.id !== undefined) entry.id = bp.id;
  if ('line' in entry) {
    if (bp.line !== undefined && bp.line !== entry.line) entry.actualLine = bp.line;
    else delete entry.actualLine;
  }
  if (bp.message) entry.message = bp.message;
  else delete entry.message;
}
