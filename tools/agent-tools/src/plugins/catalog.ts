import type { HarnessPlugin } from '../plugin.js';
import { evalPresent, vibeMode } from './presence.js';

/**
 * A package the harness can assemble, before it is loaded: the tools it registers and how to load it. Loading a
 * package (its module graph, zod schemas, protocol libraries) is most of a short run's start-up, so a run that only
 * needs one tool loads only the package that has it.
 */
export interface PluginEntry {
  /** Every tool the package registers when its resources are present (checked against the loaded plugin by a test). */
  readonly tools: readonly string[];
  /**
   * The tools a run may answer with this package alone: read-tier tools that call no other tool and write no file,
   * so no other package (the language servers' diagnostics, the bridge of eval) takes part in their answer.
   */
  readonly standalone: readonly string[];
  /** Whether its resources exist here, so that its tools are registered (always, when absent); the plugin agrees. */
  readonly present?: () => boolean;
  load(): Promise<HarnessPlugin>;
}

/** Every package the harness assembles, in listing order (as `plugins/index.ts`, which loads them all at once). */
export const catalog: readonly PluginEntry[] = [
  {
    tools: ['lsp', 'lsp_rename', 'lsp_fix'],
    standalone: ['lsp'],
    load: () => import('./lsp.js').then((m) => m.lspPlugin),
  },
  {
    tools: ['ast_grep', 'ast_tree', 'ast_edit', 'resolve'],
    standalone: ['ast_grep', 'ast_tree'],
    load: () => import('./ast.js').then((m) => m.astPlugin),
  },
  { tools: ['debug'], standalone: [], load: () => import('./debug.js').then((m) => m.debugPlugin) },
  { tools: ['eval'], standalone: [], present: evalPresent, load: () => import('./eval.js').then((m) => m.evalPlugin) },
  { tools: ['ask_user'], standalone: ['ask_user'], load: () => import('./ask.js').then((m) => m.askPlugin) },
  {
    tools: ['vibe_spawn', 'vibe_send', 'vibe_wait', 'vibe_kill', 'vibe_list'],
    standalone: [],
    present: vibeMode,
    load: () => import('./vibe.js').then((m) => m.vibePlugin),
  },
];

/** The harness's own tools that need no package at all. */
const OWN_STANDALONE = ['read'];

/**
 * The plugins a run needs: for a run that will make one call of a standalone tool, only the package that has it
 * (none for the harness's own read tool); otherwise every package. Loaded in parallel.
 */
export function loadPlugins(only?: string): Promise<HarnessPlugin[]> {
  const entries =
    only === undefined || !isStandalone(only) ? catalog : catalog.filter((entry) => entry.standalone.includes(only));
  return Promise.all(entries.map((entry) => entry.load()));
}

/** Whether a run can answer a call of `tool` with at most the package that has it. */
export function isStandalone(tool: string): boolean {
  return OWN_STANDALONE.includes(tool) || catalog.some((entry) => entry.standalone.includes(tool));
}
