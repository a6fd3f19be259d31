import { randomUUID } from 'node:crypto';
import { causedByAbort } from './abort-cause.js';
import { type ApprovalCallback, readDecision } from './approval.js';
import { capText } from './caps.js';
import { RunDiagnostics, type RunDiagnosticsOptions } from './diagnostics/run-diagnostics.js';
import { disposeValue } from './dispose.js';
import { thrownResult } from './error-result.js';
import { AgentToolsError, CoreError, errorSentence, messageOf } from './errors.js';
import { type AnyToolFactory, type FactoryOutput, isPresent, type Resources } from './factory.js';
import { fileWritesSettled } from './file-lock.js';
import { KeyedLock } from './keyed-lock.js';
import { afterDelay } from './long-timer.js';
import { type NoticeLimits, RunNotices } from './notices.js';
import { DEFAULT_PROGRESS_INTERVAL_MS, type ProgressListener, ProgressThrottle } from './progress.js';
import { appendText, errorResult, type ToolResult } from './result.js';
import { runStarted } from './runs.js';
import { type ToolSchema, toolSchema } from './schema.js';
import { asSentence } from './sentence.js';
import { admits, builtinSurfaces, defaultSurface, type Surface } from './surface.js';
import { needsApproval } from './tier.js';
import type { AnyToolDefinition, CallOptions, ToolCaller, ToolContext } from './tool.js';
import { validateArguments } from './validation.js';
import { wellFormedResult } from './well-formed.js';
import { formatLimit } from './wording.js';

/** How a registry is assembled. */
export interface RegistryOptions {
  /** The run's resources; factories whose needs are all present contribute their tools. */
  readonly resources?: Resources;
  readonly factories?: readonly AnyToolFactory[];
  /** The harness's own tools (its write and edit tools, wrapped with `wrapWrite`). */
  readonly tools?: readonly AnyToolDefinition[];
  /** Decides write and exec calls. Without one, such calls are refused (fail-closed). */
  readonly approve?: ApprovalCallback;
  /** The surface of calls that name none (default: `default`). */
  readonly surface?: Surface;
  /** Further surfaces, addressable by name. */
  readonly surfaces?: readonly Surface[];
  /** Per-call timeout for tools that set none (default 120 s). */
  readonly timeoutMs?: number;
  readonly runId?: string;
  /** Options of the run's diagnostics hook (inline budget, severities). */
  readonly diagnostics?: RunDiagnosticsOptions;
  /** Bounds of the run's notice board (notices waiting for the next result). */
  readonly notices?: NoticeLimits;
  /** How long each resource may take to dispose (default 10 s). */
  readonly disposeTimeoutMs?: number;
  /** How often a call's `onProgress` listener hears from it at most (default 250 ms). */
  readonly progressIntervalMs?: number;
  /**
   * Called with every unexpected throw, for the harness's logs; the model gets an error result either way. An
   * AgentToolsError a tool throws is its answer, not unexpected, and is not reported here.
   */
  readonly onError?: (error: unknown, context: ErrorContext) => void;
}

/**
 * Where an unexpected throw happened, for `onError`: in a call of `tool`, while a factory built its tools, while
 * disposing, or in the background (a resource's event handler or timer outside any call; `factory` names the
 * factory whose resource reported it through `run.reportError`, and is absent for the run's own diagnostics hook,
 * whose source failed with a bug while gathering a write's diagnostics).
 */
export interface ErrorContext {
  readonly phase: 'call' | 'factory' | 'dispose' | 'background';
  readonly tool?: string;
  readonly factory?: string;
}

/** Whether a factory contributed tools, and if not, which resources it missed. */
export interface FactoryStatus {
  readonly name: string;
  readonly registered: boolean;
  readonly missing: readonly string[];
  readonly tools: readonly string[];
  /** Set when the factory threw while creating its tools. */
  readonly error?: string;
}

/** How long a serialized tool keeps its lock after a timeout or cancel while it winds down. */
const WIND_DOWN_MS = 2000;

/**
 * The tools of one run: lists schemas per surface and executes calls with validation, approval, serialization,
 * timeouts and error containment. Disposing it disposes every resource.
 */
export class Registry implements ToolCaller, AsyncDisposable {
  readonly runId: string;
  /** The run's diagnostics hook, shared by every tool that writes files. */
  readonly diagnostics: RunDiagnostics;
  /**
   * The run's notice board: what happened in the background (late diagnostics, a worker that ended), appended
   * once to the next result of {@link call}. A harness may take notices itself when a turn ends without a call.
   */
  readonly notices: RunNotices;
  readonly #options: RegistryOptions;
  readonly #resources: Resources;
  readonly #tools = new Map<string, AnyToolDefinition>();
  readonly #surfaces = new Map<string, Surface>();
  readonly #factoryStatus: FactoryStatus[] = [];
  readonly #outputs: FactoryOutput[] = [];
  readonly #lock = new KeyedLock();
  readonly #lifetime = new AbortController();
  /** Ends this run's share of what lives as long as a run (the process supervisor's zygote). */
  readonly #endRun = runStarted();
  #disposing: Promise<void> | undefined;
  /** The errors already told to `onError`: a tool that reported one through `ctx.reportError` and threw it again is told once. */
  readonly #reported = new WeakSet<object>();

  constructor(options: RegistryOptions = {}) {
    this.#options = options;
    this.#resources = options.resources ?? {};
    this.runId = options.runId ?? randomUUID();
    this.notices = new RunNotices(options.notices);
    this.diagnostics = new RunDiagnostics(this.#resources.diagnostics, {
      ...(this.#resources.cwd ? { cwd: this.#resources.cwd } : {}),
      ...options.diagnostics,
      notices: this.notices,
      // A bug of the diagnostics source (a language server supervisor's) while a write's diagnostics are gathered,
      // inline or late: no call's answer changes (they read as unavailable).
      onError: (error) => this.#report(error, { phase: 'background' }),
    });
    for (const surface of [...Object.values(builtinSurfaces), ...(options.surfaces ?? [])]) {
      this.#surfaces.set(surface.name, surface);
    }
    if (options.surface) this.#surfaces.set(options.surface.name, options.surface);
    for (const factory of options.factories ?? []) this.#assemble(factory);
    for (const tool of options.tools ?? []) this.#add(tool);
  }

  /** The surface of calls that name none. */
  get defaultSurface(): Surface {
    return this.#options.surface ?? defaultSurface;
  }

  /** Every factory, and whether it contributed tools. */
  get factories(): readonly FactoryStatus[] {
    return this.#factoryStatus;
  }

  /** Whether {@link dispose} has been called. */
  get disposed(): boolean {
    return this.#disposing !== undefined;
  }

  /** Looks up a surface by name (built-in or registered), or passes a surface object through. */
  surface(surface: Surface | string | undefined): Surface {
    if (surface === undefined) return this.defaultSurface;
    if (typeof surface !== 'string') return surface;
    const found = this.#surfaces.get(surface);
    if (!found) {
      throw new CoreError(
        'invalid_definition',
        `Unknown surface "${surface}"; known surfaces: ${[...this.#surfaces.keys()].join(', ')}.`,
      );
    }
    return found;
  }

  /** The tools a surface sees, in registration order. */
  tools(surface?: Surface | string): AnyToolDefinition[] {
    const s = this.surface(surface);
    return [...this.#tools.values()].filter((tool) => admits(s, tool.tier));
  }

  /** The JSON Schemas of the tools a surface sees, ready for `toAnthropicTools` / `toOpenAITools`. */
  schemas(surface?: Surface | string): ToolSchema[] {
    return this.tools(surface).map(toolSchema);
  }

  /** Whether a surface sees a tool. */
  has(name: string, surface?: Surface | string): boolean {
    const tool = this.#tools.get(name);
    return tool !== undefined && admits(this.surface(surface), tool.tier);
  }

  /**
   * Executes one call. Never throws: unknown tools, bad arguments, refusals, timeouts, cancellations and
   * crashes all come back as error results whose text tells the model what to do. The run's waiting notices
   * (late diagnostics of earlier writes, workers that ended) are appended to the result, each once. Its text is
   * valid UTF-16 (a lone surrogate becomes U+FFFD), so no result can make the run's next model request invalid JSON.
   */
  async call(name: string, args: unknown, options: CallOptions = {}): Promise<ToolResult> {
    const progress = this.#progress(options.onProgress, 0, name);
    const result = await this.#call(name, args, options, [], progress);
    progress?.close();
    return wellFormedResult(appendText(result, this.notices.take()));
  }

  /** Disposes every factory output and every resource, aborting calls in flight. Safe to call twice. */
  dispose(): Promise<void> {
    this.#disposing ??= this.#dispose();
    return this.#disposing;
  }

  [Symbol.asyncDispose](): Promise<void> {
    return this.dispose();
  }

  #assemble(factory: AnyToolFactory): void {
    const missing = factory.needs.filter((need) => !isPresent(this.#resources[need]));
    if (missing.length > 0) {
      this.#factoryStatus.push({ name: factory.name, registered: false, missing, tools: [] });
      return;
    }
    let output: FactoryOutput;
    try {
      const created = factory.create(this.#resources as never, {
        runId: this.runId,
        notices: this.notices,
        reportError: (error) => this.#report(error, { phase: 'background', factory: factory.name }),
      });
      output = isToolList(created) ? { tools: created } : created;
    } catch (error) {
      this.#report(error, { phase: 'factory' });
      this.#factoryStatus.push({ name: factory.name, registered: false, missing: [], tools: [], error: messageOf(error) });
      return;
    }
    for (const tool of output.tools) this.#add(tool);
    this.#outputs.push(output);
    this.#factoryStatus.push({ name: factory.name, registered: true, missing: [], tools: output.tools.map((t) => t.name) });
  }

  #add(tool: AnyToolDefinition): void {
    if (this.#tools.has(tool.name)) {
      throw new CoreError('duplicate_tool', `Two tools are named "${tool.name}"; rename one of them.`);
    }
    this.#tools.set(tool.name, tool);
  }

  async #call(
    name: string,
    args: unknown,
    options: CallOptions,
    ancestors: readonly string[],
    progress: ProgressThrottle | undefined,
  ): Promise<ToolResult> {
    try {
      return await this.#execute(name, args, options, ancestors, progress);
    } catch (error) {
      // #execute contains tool failures itself; this is the last net for a registry bug or a bad surface name.
      this.#report(error, { tool: name, phase: 'call' });
      return errorResult(`The call to ${name} could not be made: ${errorSentence(error)}`);
    }
  }

  async #execute(
    name: string,
    args: unknown,
    options: CallOptions,
    ancestors: readonly string[],
    progress: ProgressThrottle | undefined,
  ): Promise<ToolResult> {
    if (this.disposed) return errorResult('This run has ended and its tools are disposed; no further calls can run.');
    const surface = this.surface(options.surface);
    const tool = this.#tools.get(name);
    if (!tool || !admits(surface, tool.tier)) return errorResult(this.#unknownTool(name, surface));

    const validation = validateArguments(name, tool.parameters, args);
    if (!validation.ok) return errorResult(validation.message);
    if (!tool.parallelSafe && ancestors.includes(name)) {
      return errorResult(`${name} cannot be called from inside its own call: it runs one call at a time and would wait for itself.`);
    }

    const signals = [this.#lifetime.signal, ...(options.signal ? [options.signal] : [])];
    const outer = AbortSignal.any(signals);
    if (outer.aborted) return errorResult(cancelledText(name, this.#lifetime.signal));

    if (needsApproval(tool.tier)) {
      const refusal = await this.#approve(tool, validation.value, surface, options, ancestors.length > 0, outer);
      if (refusal) return errorResult(refusal);
    }

    const run = (): { result: Promise<ToolResult>; settled: Promise<void> } =>
      this.#start(tool, validation.value, surface, options, ancestors, outer, progress);
    if (tool.parallelSafe) return run().result;

    const key = `${name}\u0000${options.conversationId ?? this.#resources.conversationId ?? ''}`;
    return new Promise<ToolResult>((resolve) => {
      void this.#lock.run(key, async () => {
        if (outer.aborted) return resolve(errorResult(cancelledText(name, this.#lifetime.signal)));
        const { result, settled } = run();
        resolve(await result);
        // The call has answered (perhaps by timing out); the next one waits until this one has wound down.
        await Promise.race([settled, delay(WIND_DOWN_MS)]);
      });
    });
  }

  async #approve(
    tool: AnyToolDefinition,
    args: unknown,
    surface: Surface,
    options: CallOptions,
    bridged: boolean,
    signal: AbortSignal,
  ): Promise<string | undefined> {
    const approve = this.#options.approve;
    if (!approve) {
      return `${tool.name} is a ${tool.tier}-tier tool and this run has no approver attached, so it was refused. Do not retry; continue with read-only tools or tell the user what you would have done.`;
    }
    try {
      const decision = readDecision(
        await approve({
          tool: tool.name,
          tier: tool.tier,
          args,
          surface,
          conversationId: options.conversationId ?? this.#resources.conversationId,
          bridged,
          signal,
        }),
      );
      if (decision.approved) return undefined;
      const why = decision.reason ? ` Reason given: ${asSentence(decision.reason)}` : '';
      return `The user did not allow this ${tool.name} call.${why} Do not repeat the same call; change the approach or ask the user.`;
    } catch (error) {
      this.#report(error, { tool: tool.name, phase: 'call' });
      return `${tool.name} was refused because the approval step failed: ${asSentence(errorSentence(error))}`;
    }
  }

  #start(
    tool: AnyToolDefinition,
    params: unknown,
    surface: Surface,
    options: CallOptions,
    ancestors: readonly string[],
    outer: AbortSignal,
    progress: ProgressThrottle | undefined,
  ): { result: Promise<ToolResult>; settled: Promise<void> } {
    const controller = new AbortController();
    const stop = (): void => controller.abort(outer.reason);
    outer.addEventListener('abort', stop, { once: true });
    const conversationId = options.conversationId ?? this.#resources.conversationId;
    const path = [...ancestors, tool.name];
    let answered = false;
    const bridge: ToolCaller = {
      // A bridged call stays on the surface of the call that made it: a tool cannot widen its own view.
      call: async (name, args, nested = {}) => {
        // A nested call without a listener of its own reports to its caller's.
        const own = this.#progress(nested.onProgress, path.length, name);
        const result = await this.#call(
          name,
          args,
          {
            ...nested,
            surface,
            ...(conversationId === undefined ? {} : { conversationId }),
            signal: nested.signal ? AbortSignal.any([nested.signal, controller.signal]) : controller.signal,
          },
          path,
          own ?? progress,
        );
        own?.close();
        return result;
      },
    };
    const ctx: ToolContext = {
      runId: this.runId,
      conversationId,
      cwd: this.#resources.cwd,
      signal: controller.signal,
      surface,
      toolName: tool.name,
      registry: bridge,
      diagnostics: this.diagnostics,
      notices: this.notices,
      reportError: (error) => {
        if (!AgentToolsError.isInstance(error)) this.#report(error, { tool: tool.name, phase: 'call' });
      },
      reportProgress: (report) => {
        // Nothing after the answer: a call that timed out or was cancelled may still be winding down.
        if (!answered && !controller.signal.aborted) progress?.push(report, path);
      },
    };

    const execution = Promise.resolve().then(() => tool.execute(params, ctx));
    const settled = execution.then(
      () => undefined,
      () => undefined,
    );
    const timeoutMs = options.timeoutMs ?? tool.timeoutMs ?? this.#options.timeoutMs ?? 120_000;
    let cancelTimer = (): void => undefined;
    const result = new Promise<ToolResult>((resolve) => {
      execution.then(
        (value) => resolve(checkResult(tool.name, value, (bug) => this.#report(bug, { tool: tool.name, phase: 'call' }))),
        (error: unknown) => {
          if (controller.signal.aborted) {
            // The call is answered as cancelled either way; a bug it threw on the way out is still a bug.
            if (!causedByAbort(error, controller.signal.reason)) this.#report(error, { tool: tool.name, phase: 'call' });
            return resolve(errorResult(cancelledText(tool.name, this.#lifetime.signal, controller.signal.reason, tool.tier)));
          }
          const thrown = thrownResult(tool.name, error);
          if (!thrown.expected) this.#report(error, { tool: tool.name, phase: 'call' });
          resolve(thrown.result);
        },
      );
      controller.signal.addEventListener(
        'abort',
        () => {
          const cancelled = errorResult(cancelledText(tool.name, this.#lifetime.signal, controller.signal.reason, tool.tier));
          const grace = tool.cancelGraceMs ?? 0;
          if (grace <= 0 || controller.signal.reason instanceof TimeoutMarker || this.#lifetime.signal.aborted) return resolve(cancelled);
          // A tool that can say what it did until the cancel gets a moment: its own answer (above) wins if it comes.
          void delay(grace).then(() => resolve(cancelled));
        },
        { once: true },
      );
      cancelTimer = afterDelay(timeoutMs, () => controller.abort(new TimeoutMarker(timeoutMs)));
    }).finally(() => {
      answered = true;
      cancelTimer();
      outer.removeEventListener('abort', stop);
    });
    return { result, settled };
  }

  /** Tells the harness's `onError` of an unexpected error, once per error; an `onError` that throws has nowhere to go. */
  #report(error: unknown, context: ErrorContext): void {
    if (typeof error === 'object' && error !== null) {
      if (this.#reported.has(error)) return;
      this.#reported.add(error);
    }
    try {
      this.#options.onError?.(error, context);
    } catch {
      // The harness's logger failed; the call's answer does not depend on it.
    }
  }

  /** The throttled delivery of one call's progress to its listener, when it has one. */
  #progress(listener: ProgressListener | undefined, base: number, name: string): ProgressThrottle | undefined {
    if (!listener) return undefined;
    const intervalMs = this.#options.progressIntervalMs ?? DEFAULT_PROGRESS_INTERVAL_MS;
    return new ProgressThrottle(listener, intervalMs, base, (error) => this.#report(error, { tool: name, phase: 'call' }));
  }

  /**
   * What a call of a tool the surface does not see is answered (the surface's default when omitted): unknown, and
   * for a tool that exists on other surfaces, why it is not here and what to use instead. For adapters that must
   * refuse such a call in their own protocol (the MCP server's JSON-RPC error) with the same words.
   */
  unknownToolText(name: string, surface?: Surface | string): string {
    return this.#unknownTool(name, this.surface(surface));
  }

  #unknownTool(name: string, surface: Surface): string {
    const visible = this.tools(surface).map((t) => t.name);
    const list = visible.length ? `The tools available here are: ${visible.join(', ')}.` : 'No tools are available here.';
    const hidden = this.#tools.get(name);
    if (!hidden) return `Unknown tool "${name}". ${list}`;
    // Still unknown here (it is not in this surface's schema), but a model that saw it elsewhere needs the reason.
    return `Unknown tool "${name}": it is not available on the "${surface.name}" surface, which admits ${surface.tiers.join(' and ')}-tier tools only (${name} is ${hidden.tier}-tier). Do not retry it here. ${relatedTools(name, visible)}${list}`;
  }

  async #dispose(): Promise<void> {
    this.#lifetime.abort(new Error('registry disposed'));
    this.diagnostics.dispose();
    this.notices.dispose();
    const timeout = this.#options.disposeTimeoutMs ?? 10_000;
    // A tool cancelled in the middle of writing several files goes on until its change is whole (or undone): the
    // process may exit right after this, and a rename left in half the files is worse than one that finished.
    let cancelTimer = (): void => undefined;
    const settled = await Promise.race([
      fileWritesSettled().then(() => true),
      new Promise<boolean>((resolve) => {
        cancelTimer = afterDelay(timeout, () => resolve(false));
      }),
    ]);
    cancelTimer();
    if (!settled) this.#report(new Error(`file writes still under way after ${timeout} ms`), { phase: 'dispose' });
    // Resources first, factory outputs after: an output's dispose unsubscribes the run from its resource's background
    // bugs, and a resource's last ones come while it ends (a server's exit handler at shutdown).
    for (const targets of [Object.values(this.#resources), this.#outputs]) {
      await Promise.all(
        targets.map(async (target) => {
          // What a dispose threw is told as it is (its stack); one that hung, by what the timeout says.
          let threw = false;
          const failure = await disposeValue(target, timeout, (error) => {
            threw = true;
            this.#report(error, { phase: 'dispose' });
          });
          if (failure && !threw) this.#report(new Error(failure), { phase: 'dispose' });
        }),
      );
    }
    // After the resources: their trees have ended, so the zygote (kept for this run's spawns) can go with it.
    await this.#endRun();
  }
}

/** Assembles a registry from the run's resources and the factories the harness chose. */
export function createRegistry(options: RegistryOptions = {}): Registry {
  return new Registry(options);
}

/** Marks an abort caused by the registry's timeout, so the answer can say so. */
class TimeoutMarker {
  constructor(readonly timeoutMs: number) {}
}

function cancelledText(name: string, lifetime: AbortSignal, reason?: unknown, tier?: string): string {
  // A write does not stop halfway when its call is cancelled (a change to several files is finished or undone
  // whole): the model must not take "cancelled" for "nothing was written".
  const writes = tier === 'write' ? ' Files it had begun to write may have been written all the same: check them before calling it again.' : '';
  if (reason instanceof TimeoutMarker) {
    return `${name} did not finish within ${formatLimit(reason.timeoutMs)} and was cancelled.${writes || ' Try a smaller request, or check the tool\'s status before retrying.'}`;
  }
  if (lifetime.aborted) return `${name} was cancelled because the run ended.${writes}`;
  return `${name} was cancelled before it finished.${writes}`;
}

/** What to use instead of a tool the surface hides: its visible siblings (`ast_grep` for `ast_edit`). */
function relatedTools(name: string, visible: readonly string[]): string {
  const family = name.split('_')[0] ?? name;
  const related = visible.filter((other) => other !== name && (other.split('_')[0] ?? other) === family);
  return related.length ? `To look instead, use ${related.join(' or ')}. ` : '';
}

/** The tool's result, or an error result for one that is not a ToolResult: a bug in the tool, told to `report` too. */
function checkResult(name: string, value: unknown, report: (bug: Error) => void): ToolResult {
  const result = value as ToolResult | undefined;
  if (!result || !Array.isArray(result.content) || typeof result.isError !== 'boolean') {
    report(new Error(`${name} returned a malformed result: ${capText(messageOf(value), 500)}`));
    return errorResult(`${name} returned a malformed result; this is a bug in the tool. Try another approach.`);
  }
  return result;
}

function isToolList(value: readonly AnyToolDefinition[] | FactoryOutput): value is readonly AnyToolDefinition[] {
  return Array.isArray(value);
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms).unref());
}
