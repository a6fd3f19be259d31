import { randomUUID } from 'node:crypto';
import type { QuestionPort, TargetSpace } from '@agent-tools/ask';
import { type ApprovalCallback, createRegistry, type Registry, type Resources, type Surface } from '@agent-tools/core';
import { logBug } from './bug-log.js';
import { fileTools } from './file-tools/index.js';
import type { HarnessEnv, HarnessPlugin, Terminal } from './plugin.js';
import { isStandalone, loadPlugins } from './plugins/catalog.js';

/** What the harness assembles a run from. */
export interface AssembleOptions {
  readonly cwd: string;
  readonly approve: ApprovalCallback;
  readonly terminal?: Terminal;
  readonly surface?: Surface;
  readonly conversationId?: string;
  /** The packages to assemble (default: every package, loaded when the run is assembled). */
  readonly plugins?: readonly HarnessPlugin[];
  /**
   * The one tool the run will call, when known (`agent-tools call`): a run that needs no other package loads only
   * the package that has it. Its answer is the same as with every package loaded.
   */
  readonly only?: string;
  readonly timeoutMs?: number;
  /** Where ask_user's cards go when not to the terminal (an MCP session's elicitation port), and their space. */
  readonly questions?: { readonly port: QuestionPort; readonly target: TargetSpace };
  /** Whether the harness's read, write and edit tools are registered (default true). */
  readonly fileTools?: boolean;
}

/**
 * Assembles every package for the working directory with the resources this machine has, plus the harness's
 * own file tools wrapped by core's write wrapper.
 */
export async function assemble(options: AssembleOptions): Promise<Registry> {
  const env: HarnessEnv = {
    cwd: options.cwd,
    conversationId: options.conversationId ?? randomUUID(),
    terminal: options.terminal,
    ...(options.questions ? { questions: options.questions } : {}),
  };
  if (options.plugins) return build(options, env, options.plugins);
  const only = options.only !== undefined && isStandalone(options.only) ? options.only : undefined;
  const registry = await build(options, env, await loadPlugins(only));
  // A tool the partial run does not show (a surface hides it, its package lacks a resource) is answered as by the
  // whole run, whose answer names every other tool.
  if (only === undefined || registry.has(only)) return registry;
  await registry.dispose();
  return build(options, env, await loadPlugins());
}

async function build(options: AssembleOptions, env: HarnessEnv, plugins: readonly HarnessPlugin[]): Promise<Registry> {
  const resources: Resources = { cwd: env.cwd, conversationId: env.conversationId };
  for (const plugin of plugins) Object.assign(resources, await plugin.resources(env));
  return createRegistry({
    resources,
    factories: plugins.map((p) => p.factory),
    tools: options.fileTools === false ? [] : fileTools(env.cwd),
    approve: options.approve,
    ...(options.surface ? { surface: options.surface } : {}),
    ...(options.timeoutMs ? { timeoutMs: options.timeoutMs } : {}),
    onError: (error, where) => logBug(error, `${where.phase} ${where.tool ?? where.factory ?? ''}`),
  });
}
