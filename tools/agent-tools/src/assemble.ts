import { randomUUID } from 'node:crypto';
import type { QuestionPort, TargetSpace } from '@agent-tools/ask';
import { type ApprovalCallback, createRegistry, type Registry, type Resources, type Surface } from '@agent-tools/core';
import { fileTools } from './file-tools/index.js';
import type { HarnessEnv, HarnessPlugin, Terminal } from './plugin.js';
import { plugins as allPlugins } from './plugins/index.js';

/** What the harness assembles a run from. */
export interface AssembleOptions {
  readonly cwd: string;
  readonly approve: ApprovalCallback;
  readonly terminal?: Terminal;
  readonly surface?: Surface;
  readonly conversationId?: string;
  readonly plugins?: readonly HarnessPlugin[];
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
  const plugins = options.plugins ?? allPlugins;
  const resources: Resources = { cwd: env.cwd, conversationId: env.conversationId };
  for (const plugin of plugins) Object.assign(resources, await plugin.resources(env));
  return createRegistry({
    resources,
    factories: plugins.map((p) => p.factory),
    tools: options.fileTools === false ? [] : fileTools(env.cwd),
    approve: options.approve,
    ...(options.surface ? { surface: options.surface } : {}),
    ...(options.timeoutMs ? { timeoutMs: options.timeoutMs } : {}),
    onError: (error, where) => {
      if (process.env['AGENT_TOOLS_DEBUG']) console.error(`[agent-tools] ${where.phase} ${where.tool ?? ''}`, error);
    },
  });
}
