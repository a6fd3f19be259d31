import type { z } from 'zod';
import type { RunDiagnostics } from './diagnostics/run-diagnostics.js';
import { CoreError } from './errors.js';
import type { RunNotices } from './notices.js';
import type { ProgressListener, ToolProgress } from './progress.js';
import type { ToolResult } from './result.js';
import type { Surface } from './surface.js';
import { TIERS, type Tier } from './tier.js';

/** Options of a call made through the registry, by the harness or by a tool bridging into it. */
export interface CallOptions {
  /** The surface the call is made on; the registry's default surface when omitted. */
  readonly surface?: Surface | string;
  /** Cancels the call; the tool sees it through `ctx.signal`. */
  readonly signal?: AbortSignal;
  /** Overrides the tool's and the registry's timeout for this call. */
  readonly timeoutMs?: number;
  /** The conversation this call belongs to, when the run has several. */
  readonly conversationId?: string;
  /**
   * Hears what the call says while it runs (and what the calls it makes through `ctx.registry` say), at most
   * every `progressIntervalMs` of the registry; never after the call has answered. A bridged call without its
   * own listener reports to its caller's.
   */
  readonly onProgress?: ProgressListener;
}

/** Something that executes tool calls: the registry, or the bridged caller a tool receives in its context. */
export interface ToolCaller {
  call(name: string, args: unknown, options?: CallOptions): Promise<ToolResult>;
}

/** What a tool's `execute` receives beside its validated parameters. */
export interface ToolContext {
  /** The run this registry belongs to. */
  readonly runId: string;
  /** The conversation of the call, when known. */
  readonly conversationId: string | undefined;
  /** The working directory of the run, when it has one. Tools resolve paths inside it. */
  readonly cwd: string | undefined;
  /** Aborted when the call is cancelled, times out, or the registry is disposed. */
  readonly signal: AbortSignal;
  /** The surface the call was made on. */
  readonly surface: Surface;
  /** The name of the tool being executed. */
  readonly toolName: string;
  /**
   * The registry, for bridged calls (a cell calling `tool("read", ...)`): surface, approval and wrappers
   * apply exactly as for a call the model made. Calls made here are nested under this call.
   */
  readonly registry: ToolCaller;
  /** The run's diagnostics hook: what a tool that writes files calls after writing them. */
  readonly diagnostics: RunDiagnostics;
  /** The run's notice board: what a tool posts for the next result, or withdraws once its own answer says it. */
  readonly notices: RunNotices;
  /**
   * Tells the caller what a long call is doing (each report replaces the previous one). Free to call often:
   * the registry throttles, and it does nothing when nobody listens.
   */
  reportProgress(progress: ToolProgress): void;
  /**
   * Tells the harness's `onError` of an unexpected error (a bug: anything but an AgentToolsError, which is an answer
   * and is ignored here) that the tool caught to answer the model itself, saying what state is kept. A tool with
   * nothing better to say lets the error propagate instead: the registry reports it and answers "<tool> failed: …".
   * An error reported here and thrown again is reported once.
   */
  reportError(error: unknown): void;
}

/** One tool: everything a registry needs to list it, gate it and run it. */
export interface ToolDefinition<P extends z.ZodType = z.ZodType, S = unknown> {
  /** The name a model calls, `[a-zA-Z0-9_-]{1,64}` so every model API accepts it. */
  readonly name: string;
  readonly tier: Tier;
  /** The only manual a model reads: what the tool does, and how to use it well. */
  readonly description: string;
  /** A zod object schema for the arguments. */
  readonly parameters: P;
  /** Whether calls may overlap. Tools holding session state (debug, eval) are not parallel-safe. */
  readonly parallelSafe: boolean;
  /**
   * How long a call may run before the registry aborts it; the registry's default when omitted. `Infinity`
   * for a tool that enforces its own budget (eval's idle timeout).
   */
  readonly timeoutMs?: number;
  /**
   * How long, after the caller cancels a call, the registry waits for the tool's own answer before answering only
   * that the call was cancelled. For a tool that can say what it did until then (eval shows what the cell printed
   * and that the kernel kept its state); 0, the default, answers at once. A timeout or the end of the run answers
   * at once either way.
   */
  readonly cancelGraceMs?: number;
  execute(params: z.output<P>, ctx: ToolContext): Promise<ToolResult<S>> | ToolResult<S>;
}

/** A tool definition whose parameter type has been forgotten, as registries hold them. */
// biome-ignore lint/suspicious/noExplicitAny: a registry holds tools of every parameter type.
export type AnyToolDefinition = ToolDefinition<z.ZodType, any>;

const TOOL_NAME = /^[a-zA-Z0-9_-]{1,64}$/;

/**
 * Defines a tool, checking the definition once so a registry never holds a malformed one.
 * The parameters must be a zod object schema: every model API wants an object at the top.
 */
export function defineTool<P extends z.ZodType, S = unknown>(definition: ToolDefinition<P, S>): ToolDefinition<P, S> {
  const { name, tier, description, parameters, timeoutMs, cancelGraceMs } = definition;
  if (!TOOL_NAME.test(name)) {
    throw new CoreError('invalid_definition', `Tool name "${name}" must match ${TOOL_NAME.source}.`);
  }
  if (!TIERS.includes(tier)) {
    throw new CoreError('invalid_definition', `Tool "${name}" has unknown tier "${String(tier)}".`);
  }
  if (!description.trim()) {
    throw new CoreError('invalid_definition', `Tool "${name}" needs a description: it is the model's only manual.`);
  }
  if (!isZod4Schema(parameters)) {
    throw new CoreError(
      'invalid_definition',
      `Tool "${name}" needs a zod 4 schema for its parameters, and got ${zodVersionOf(parameters)}. Install zod 4 in your project (npm i zod@^4) and build the schema with it.`,
    );
  }
  if (parameters._zod.def.type !== 'object') {
    throw new CoreError('invalid_definition', `Tool "${name}" parameters must be a z.object() schema.`);
  }
  if (timeoutMs !== undefined && !(timeoutMs > 0)) {
    throw new CoreError('invalid_definition', `Tool "${name}" timeoutMs must be positive or Infinity.`);
  }
  if (cancelGraceMs !== undefined && !(cancelGraceMs >= 0 && Number.isFinite(cancelGraceMs))) {
    throw new CoreError('invalid_definition', `Tool "${name}" cancelGraceMs must be a finite number of milliseconds, 0 or more.`);
  }
  return Object.freeze({ ...definition });
}

/** Whether a value is a zod 4 schema (classic or mini): it carries `_zod`, which zod 3 schemas do not. */
function isZod4Schema(value: unknown): value is z.ZodType {
  const internals = (value as { _zod?: { def?: unknown } } | null | undefined)?._zod;
  return typeof internals === 'object' && internals !== null && typeof internals.def === 'object';
}

function zodVersionOf(value: unknown): string {
  if (typeof value === 'object' && value !== null && '_def' in value) return 'a zod 3 schema';
  return value === undefined ? 'nothing' : 'something that is not a zod schema';
}
