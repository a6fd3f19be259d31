import type { DiagnosticsSource } from './diagnostics/diagnostic.js';
import type { RunNotices } from './notices.js';
import type { AnyToolDefinition } from './tool.js';

/**
 * The resources of one run. Resource packages add their own keys by module augmentation:
 *
 * ```ts
 * declare module '@agent-tools/core' {
 *   interface Resources { lspSupervisor?: LspSupervisor }
 * }
 * ```
 *
 * A resource counts as present when its value is neither `undefined`, `null` nor `false`. Values with a
 * `dispose()`, `[Symbol.asyncDispose]()` or `[Symbol.dispose]()` method are disposed with the registry.
 */
export interface Resources {
  /** The working directory every path argument is resolved inside. */
  cwd?: string;
  /** The conversation the run serves. */
  conversationId?: string;
  /** Where written files' diagnostics come from (the language-server supervisor implements it). */
  diagnostics?: DiagnosticsSource;
  [name: string]: unknown;
}

/** The resources a factory receives: the ones it declared are guaranteed present. */
export type ResourcesWith<K extends string> = Resources & { readonly [P in K]-?: NonNullable<Resources[P]> };

/** What a factory learns about the run it builds tools for, beside the resources. */
export interface FactoryRun {
  readonly runId: string;
  /**
   * The run's notice board: a resource that works in the background posts here when something ends, and the
   * registry appends it to the next result. Unsubscribe in the output's `dispose`.
   */
  readonly notices: RunNotices;
  /**
   * Tells the harness's `onError` of a bug thrown outside any call (a resource's event handler, timer or worker),
   * once per error, as `onError(error, { phase: 'background', factory })`; the model's answers do not change. A
   * resource with background work keeps a `BackgroundErrors` (`@agent-tools/core/internal`) and offers
   * `onBackgroundError(reporter)`; the factory subscribes this there and unsubscribes in its output's `dispose`.
   */
  readonly reportError: (error: unknown) => void;
}

/** What a factory returns: its tools, and optionally something to dispose with the registry. */
export interface FactoryOutput {
  readonly tools: readonly AnyToolDefinition[];
  dispose?(): void | Promise<void>;
}

/**
 * What a resource package exports: the resources it needs and how to build its tools from them. Its tools are
 * registered only when every needed resource is present.
 */
export interface ToolFactory<K extends string = string> {
  /** The package or feature name, for listings (`@agent-tools/lsp`). */
  readonly name: string;
  readonly needs: readonly K[];
  /** Builds the tools. A registry always passes `run`; it is optional so a test can call `create` alone. */
  create(resources: ResourcesWith<K>, run?: FactoryRun): readonly AnyToolDefinition[] | FactoryOutput;
}

/** A factory whose resource keys have been forgotten, as registries and harnesses hold them. */
export interface AnyToolFactory {
  readonly name: string;
  readonly needs: readonly string[];
  create(resources: never, run?: FactoryRun): readonly AnyToolDefinition[] | FactoryOutput;
}

/** Defines a factory with its resource keys inferred, so `create` sees them as present. */
export function defineFactory<const K extends string>(factory: ToolFactory<K>): ToolFactory<K> {
  return Object.freeze({ ...factory, needs: Object.freeze([...factory.needs]) });
}

/** Whether a resource value counts as present. */
export function isPresent(value: unknown): boolean {
  return value !== undefined && value !== null && value !== false;
}
