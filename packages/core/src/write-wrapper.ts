import { resolve } from 'node:path';
import type { z } from 'zod';
import type { WrittenFileReport } from './diagnostics/run-diagnostics.js';
import { withFileLock } from './file-lock.js';
import type { ToolResult } from './result.js';
import { appendText } from './result.js';
import { defineTool, type ToolDefinition } from './tool.js';

/** The arguments {@link wrapWrite} looks in for the written path, in this order, unless told otherwise. */
export const DEFAULT_PATH_ARGUMENTS: readonly string[] = Object.freeze(['path', 'file_path', 'file']);

/** How {@link wrapWrite} learns which files a call writes. */
export interface WrapWriteOptions<P extends z.ZodType> {
  /**
   * The argument (or arguments, tried in order) that holds the written path, for a tool whose argument is not
   * called `path`, `file_path` or `file`: `wrapWrite(saveTool, { pathArgument: 'filename' })`.
   */
  pathArgument?: string | readonly string[];
  /**
   * The files a call writes, relative to the working directory or absolute; takes precedence over
   * `pathArgument`. Called before the write (without a result, to take a baseline) and after it (with the
   * result, e.g. for an apply_patch tool that reports the files it touched).
   */
  files?(params: z.output<P>, result?: ToolResult): readonly string[];
}

/**
 * Appended to a successful write whose arguments hold no path the wrapper can find, so neither the model nor the
 * harness author reads the silence as a clean file.
 */
export const NO_PATH_NOTE =
  'Diagnostics not checked: no path argument (the write wrapper looks in `path`, `file_path` or `file`; a harness names another with its `pathArgument` or `files` option).';

/** The `structured` data of a wrapped write: the tool's own plus the diagnostics of the written files. */
export interface WithDiagnostics {
  readonly diagnostics?: readonly WrittenFileReport[];
  readonly [key: string]: unknown;
}

/**
 * Wraps a harness's own write, edit or apply_patch tool so that, after a successful write, the run's
 * diagnostics source checks the touched files and only newly introduced diagnostics are appended to the
 * result. One call per tool: `wrapWrite(writeTool)`. The call holds the write lock of its files
 * ({@link withFileLock}) from the baseline to the check, so it never interleaves with resolve, lsp_rename,
 * lsp_fix or another wrapped write of the same file, in any conversation of the process.
 */
export function wrapWrite<P extends z.ZodType, S>(
  tool: ToolDefinition<P, S>,
  options: WrapWriteOptions<P> = {},
): ToolDefinition<P, S | WithDiagnostics> {
  const keys = typeof options.pathArgument === 'string' ? [options.pathArgument] : (options.pathArgument ?? DEFAULT_PATH_ARGUMENTS);
  const filesOf = options.files ?? ((params: unknown) => pathArguments(params, keys));
  return defineTool<P, S | WithDiagnostics>({
    ...tool,
    async execute(params, ctx) {
      const base = ctx.cwd ?? process.cwd();
      const absolute = (list: readonly string[]): string[] => list.map((file) => resolve(base, file));
      const targets = absolute(filesOf(params));
      // The baseline, the write and the check of what it wrote are one step for the file: a resolve or another
      // write of the same file that slipped in between would be lost, or blamed on this one.
      return withFileLock(targets, async () => {
        if (ctx.diagnostics.enabled) await ctx.diagnostics.beforeWrite(targets, ctx.signal);
        const result = await tool.execute(params, ctx);
        if (result.isError || !ctx.diagnostics.enabled) return result;
        const written = absolute(filesOf(params, result));
        // A files() callback that names nothing has decided so; only a path looked for and not found is news.
        if (written.length === 0) return options.files ? result : appendText(result, NO_PATH_NOTE);
        const report = await ctx.diagnostics.afterWrite(written, ctx.signal);
        if (!report.text) return result;
        const own = result.structured;
        const structured: WithDiagnostics =
          own !== null && typeof own === 'object' && !Array.isArray(own)
            ? { ...(own as Record<string, unknown>), diagnostics: report.files }
            : { diagnostics: report.files };
        return { ...appendText(result, report.text), structured };
      });
    },
  });
}

function pathArguments(params: unknown, keys: readonly string[]): string[] {
  if (params === null || typeof params !== 'object') return [];
  const record = params as Record<string, unknown>;
  for (const key of keys) {
    const value = record[key];
    if (typeof value === 'string' && value) return [value];
  }
  return [];
}
