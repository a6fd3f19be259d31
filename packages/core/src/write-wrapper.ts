import { resolve } from 'node:path';
import type { z } from 'zod';
import type { WrittenFileReport } from './diagnostics/run-diagnostics.js';
import { withFileLock } from './file-lock.js';
import type { ToolResult } from './result.js';
import { appendText } from './result.js';
import { defineTool, type ToolDefinition } from './tool.js';

/** How {@link wrapWrite} learns which files a call writes. */
export interface WrapWriteOptions<P extends z.ZodType> {
  /**
   * The files a call writes, relative to the working directory or absolute. Called before the write (without
   * a result, to take a baseline) and after it (with the result, e.g. for an apply_patch tool that reports the
   * files it touched). Default: the `path`, `file_path` or `file` argument.
   */
  files?(params: z.output<P>, result?: ToolResult): readonly string[];
}

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
  const filesOf = options.files ?? defaultFiles;
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
        const report = await ctx.diagnostics.afterWrite(absolute(filesOf(params, result)), ctx.signal);
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

function defaultFiles(params: unknown): string[] {
  if (params === null || typeof params !== 'object') return [];
  const record = params as Record<string, unknown>;
  for (const key of ['path', 'file_path', 'file']) {
    const value = record[key];
    if (typeof value === 'string' && value) return [value];
  }
  return [];
}
