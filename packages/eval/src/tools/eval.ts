import { defineTool, errorResult, errorSentence, type ToolResult, textResult } from '@agent-tools/core';
import { formatDuration } from '@agent-tools/core/internal';
import { z } from 'zod';
import type { AcquiredKernel, KernelFactory } from '../jupyter/kernel-factory.js';
import { LANGUAGES } from '../language.js';
import { rewritePython, SUPPORTED_IDIOMS } from '../python/magics.js';
import { unsendablePython } from '../python/source-check.js';
import { type EvalStructured, renderCell } from '../render/cell-result.js';
import { runCell } from '../run-cell.js';

/** The default idle budget of a cell, in seconds. */
export const DEFAULT_IDLE_SECONDS = 300;

/** Counts the words of a description (tokens holding a letter or digit). */
export function wordCount(text: string): number {
  return text
    .trim()
    .split(/\s+/)
    .filter((word) => /[\p{L}\p{N}]/u.test(word)).length;
}

/** The most words a cell's label keeps. */
export const LABEL_WORDS = 10;

/**
 * The transcript label of a cell: its description as given, cut after {@link LABEL_WORDS} words. The 5-to-10-word
 * rule is guidance for the model, never a reason not to run its code: a short label is used as it is.
 */
export function cellLabel(description: string): string {
  const text = description.trim().replace(/\s+/g, ' ');
  if (wordCount(text) <= LABEL_WORDS) return text;
  let words = 0;
  const kept: string[] = [];
  for (const token of text.split(' ')) {
    if (/[\p{L}\p{N}]/u.test(token) && ++words > LABEL_WORDS) break;
    kept.push(token);
  }
  return `${kept.join(' ')}…`;
}

/** Arguments of the `eval` tool. */
export const evalParameters = z.object({
  code: z
    .string()
    .describe('The cell to run. May be empty only with reset: true. The value of its last expression is returned.'),
  description: z
    .string()
    .describe(
      'What the cell does, in 5 to 10 words, e.g. "Load orders and count rows per region". The user sees it as the label of this step; a longer one is cut.',
    ),
  language: z.enum(LANGUAGES).default('python').describe('python (default) or javascript. Each has its own kernel.'),
  reset: z
    .boolean()
    .default(false)
    .describe("Throw this language's kernel away first and start clean (all variables, imports and data are lost)."),
  timeout_seconds: z
    .number()
    .positive()
    .max(86_400)
    .optional()
    .describe(`Idle budget: the cell is interrupted after this many seconds without output or a tool call in flight (default ${DEFAULT_IDLE_SECONDS}).`),
});

const DESCRIPTION = `Run a Python or JavaScript cell in a persistent kernel, like a notebook: variables, imports and loaded data stay for the next call. The answer shows printed output, display() output and the last expression's value as Out[n]; a pandas DataFrame comes back as a table, a matplotlib figure as an image, an error as a short traceback.

- Python (the default) runs on IPython in the working directory. These IPython idioms work: ${SUPPORTED_IDIOMS}. %pip install works offline from a local path or wheel, installs for this run only, and makes the next import load the new version. Other magics are refused with a hint.
- JavaScript runs on Node ${process.versions.node} with top-level await; top-level const/let/function/class persist between cells; require() and import ... from work.
- Call the harness's tools from a cell. Python: text = tool("read", {"path": "src/app.py"}) returns the text and raises ToolError when the tool fails; tool.parallel([("read", {...}), ("read", {...})]) runs several at once. JavaScript: const text = await tool("read", {path: "src/app.py"}); calls started together run together. These calls pass the same approval and rules as yours.
- reset: true throws the kernel away and starts clean. A kernel that dies is replaced on the next call, and the answer says its state was lost.
- A cell may run as long as it keeps printing or calling tools. After timeout_seconds (default ${DEFAULT_IDLE_SECONDS}) with neither, it is interrupted; the kernel and its variables survive.
- Work in small steps: look at data (df.shape, df.head()) before computing on it; do not print huge values, output is truncated.
- Change project files with the harness's write and edit tools, not from a cell, so the change is checked; use eval to compute, explore data and try code.`;

/** The `eval` tool: persistent Python and JavaScript cells on the run's kernels. */
export function evalTool(factory: KernelFactory) {
  return defineTool({
    name: 'eval',
    tier: 'exec',
    parallelSafe: false,
    // The tool enforces its own idle budget, which a fixed registry timeout would cut short.
    timeoutMs: Number.POSITIVE_INFINITY,
    // A cancelled cell is interrupted, not killed: the answer says what it printed and that the state was kept.
    // The interrupt takes at most interruptGraceMs before the kernel is given up, and that answer says so too.
    cancelGraceMs: factory.interruptGraceMs + 5000,
    description: DESCRIPTION,
    parameters: evalParameters,
    async execute(params, ctx): Promise<ToolResult<EvalStructured | undefined>> {
      const { language, reset } = params;
      const before: string[] = [];
      if (reset) {
        const had = await factory.reset(ctx.conversationId, language);
        before.push(had ? `The ${language} kernel was reset: this cell runs in a clean one.` : `There was no ${language} kernel yet; this cell runs in a new one.`);
      }
      if (!params.code.trim()) {
        if (reset) return textResult(before.join(' ').replace('this cell runs in', 'the next cell runs in'));
        return errorResult('`code` is empty. Pass the cell to run (or reset: true to only reset the kernel).');
      }

      let code = params.code;
      let rewritten: readonly string[] = [];
      if (language === 'python') {
        const unsendable = unsendablePython(code);
        if (unsendable) return errorResult(`${unsendable} Nothing was run; the kernel and its variables are kept.`);
        const rewrite = rewritePython(code);
        if ('error' in rewrite) return errorResult(`${rewrite.error} Nothing was run.`);
        code = rewrite.code;
        rewritten = rewrite.rewritten;
      }

      let acquired: AcquiredKernel;
      try {
        acquired = await factory.acquire(ctx.conversationId, language);
      } catch (error) {
        // Answered here, so the model learns nothing ran; a bug (not an EvalToolError) still reaches the harness.
        ctx.reportError(error);
        return errorResult(`The ${language} kernel could not be started, so nothing was run: ${errorSentence(error)}`);
      }
      if (acquired.lost) {
        before.push(
          `A fresh ${language} kernel was started because ${acquired.lost}: variables, imports and data from earlier cells are gone; re-run what this cell needs.`,
        );
      }

      const idleSeconds = params.timeout_seconds ?? DEFAULT_IDLE_SECONDS;
      const run = await runCell({
        session: acquired.session,
        code,
        idleMs: idleSeconds * 1000,
        ceilingMs: factory.cellCeilingMs,
        caller: ctx.registry,
        onBug: (error) => ctx.reportError(error),
        signal: ctx.signal,
        interruptGraceMs: factory.interruptGraceMs,
        onProgress: (progress) => ctx.reportProgress(progress),
      });

      const after: string[] = [];
      switch (run.ended) {
        case 'timeout':
          after.push(
            run.stoppedBy === 'ceiling'
              ? `The cell was interrupted after running ${formatDuration(factory.cellCeilingMs)}, the most one cell may run (tool calls not counted), although it was still printing. The kernel and its variables are kept; split the work into shorter cells.`
              : `The cell was interrupted after ${idleSeconds} s without output or a tool call. The kernel and its variables are kept; to allow longer quiet stretches pass a larger timeout_seconds, or print progress.`,
          );
          break;
        case 'aborted':
          after.push(
            `The ${language} kernel did not run this cell (it answered "aborted"), so nothing in it took effect; the kernel and its variables are kept. Run the cell again.`,
          );
          break;
        case 'cancelled':
          after.push(
            `The call was cancelled, so the cell was interrupted${run.outputs.some((o) => o.type !== 'error') ? ' (above: what it printed until then)' : ' before it printed anything'}. The ${language} kernel kept its state: variables, imports and data, including what this cell set before it stopped, are still there.`,
          );
          break;
        case 'stuck':
        case 'died':
          after.push(
            `The cell did not finish: ${run.deathReason}. Its variables, imports and data are lost; the next eval call starts a fresh ${language} kernel.`,
          );
          break;
        default:
          break;
      }
      if (run.outputs.some((o) => o.type === 'stream' && /IOPub (data|message) rate exceeded/.test(o.text))) {
        after.push(
          "The Jupyter server throttled this cell's output (its IOPub rate limit), so part of it never arrived here. Print less, or start that server with --ServerApp.limit_rate=False (eval's own local server does).",
        );
      }
      if (run.droppedDisplays > 0) {
        after.push(`${run.droppedDisplays} more display outputs were not kept: display less per cell.`);
      }
      if (run.plainInputs > 0) {
        after.push('The cell called input(), which got an empty line: nobody can type into an eval cell. Put the data in the code instead.');
      }
      return renderCell({
        language,
        label: cellLabel(params.description),
        outputs: run.outputs,
        executionCount: run.executionCount,
        ended: run.ended,
        before,
        after,
        kernel: { id: acquired.session.id, where: acquired.where, started: acquired.started },
        bridgeCalls: run.bridgeCalls,
        rewritten,
      });
    },
  });
}
