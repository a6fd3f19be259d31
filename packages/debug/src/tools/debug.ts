import { defineTool, type ToolResult, textResult, toolErrorResult } from '@agent-tools/core';
import { rethrowUnexpected } from '@agent-tools/core/internal';
import { z } from 'zod';
import { DebugError } from '../errors.js';
import type { OpContext } from '../ops/common.js';
import { attach, guarded, launch, pause, resume, step, terminate } from '../ops/control.js';
import { adapters, breakpoints, output, status } from '../ops/info.js';
import { evaluate, scopes, stack, threads, variables } from '../ops/inspect.js';
import type { FunctionRequest, LineRequest } from '../session/breakpoints.js';
import { HIT_CONDITION } from '../session/hit-condition.js';
import type { DebugSupervisor } from '../supervisor.js';

/** The actions of the debug tool (SPEC §6). */
export const DEBUG_ACTIONS = [
  'adapters',
  'status',
  'breakpoints',
  'launch',
  'attach',
  'continue',
  'pause',
  'step_over',
  'step_in',
  'step_out',
  'threads',
  'stack',
  'scopes',
  'variables',
  'evaluate',
  'output',
  'terminate',
] as const;

const condition = z.string().min(1).optional().describe('Stop only when this expression (in the program\'s language) is true.');
const hitCondition = z
  .string()
  .regex(HIT_CONDITION, 'a hit condition is a count with an optional operator: "3" (the third hit only), ">= 3" (the third and every later one), "% 3" (every third); also ">", "<", "<="')
  .optional()
  .describe('Stop only at some hits: "3" (the third hit only), ">= 3" (the third and every later one), "% 3" (every third); also ">", "<", "<=".');

/**
 * A line breakpoint: a line number, or a line with a condition, a hit condition or a log message. The object is
 * strict: a misspelt kind (the DAP's `logMessage`) dropped silently would leave a plain breakpoint that stops.
 */
const lineBreakpoint = z.union([
  z.number().int().min(1),
  z.strictObject({
    line: z.number().int().min(1).describe('1-based line number.'),
    condition,
    hit_condition: hitCondition,
    log_message: z
      .string()
      .min(1)
      .optional()
      .describe('A logpoint: print this message to the program\'s output instead of stopping; {expression} is replaced by its value.'),
  }),
]);

/** A function breakpoint: a function's name, or a name with a condition or hit condition. */
const functionBreakpoint = z.union([z.string().min(1), z.strictObject({ name: z.string().min(1), condition, hit_condition: hitCondition })]);

/** The debug tool's parameters: the action, and its arguments beside it, flat. */
export const debugParameters = z.object({
  action: z.enum(DEBUG_ACTIONS).describe('What to do; see the tool description for each action and its arguments.'),
  file: z.string().optional().describe('breakpoints: source file, relative to the working directory.'),
  lines: z
    .array(lineBreakpoint)
    .optional()
    .describe('breakpoints: the file\'s breakpoints, replacing the previous ones: line numbers, or {line, condition?, hit_condition?, log_message?}; [] clears them.'),
  functions: z
    .array(functionBreakpoint)
    .optional()
    .describe('breakpoints: function breakpoints by name ("main.twice", "total"), or {name, condition?, hit_condition?}, replacing the previous ones; [] clears them.'),
  exceptions: z
    .array(z.string().min(1))
    .optional()
    .describe('breakpoints: where exceptions stop the program: ["uncaught"] (the default), ["all"] (wherever one is raised or thrown), [] (never), or the adapter\'s filter ids (status lists them).'),
  program: z
    .string()
    .optional()
    .describe('launch: the program, relative to the working directory: a .py, .go, .js or .ts file, a Go package folder, or a native executable built with debug info.'),
  python: z
    .string()
    .min(1)
    .optional()
    .describe('launch (debugpy): the Python interpreter the program runs under, instead of the project\'s .venv/bin/python, venv/bin/python or the python3 on PATH.'),
  args: z.array(z.string()).optional().describe('launch: command-line arguments for the program.'),
  adapter: z.string().optional().describe('launch/attach: adapter id (see adapters) instead of choosing by file type and root marker.'),
  port: z.number().int().min(1).max(65535).optional().describe('attach: the loopback port the debuggee listens on.'),
  thread_id: z.number().int().optional().describe('continue/pause/steps/stack: thread id; default: the thread that stopped.'),
  frame_id: z.number().int().optional().describe('scopes (required) / evaluate: a frame id from the last stop or stack answer.'),
  reference: z.number().int().min(1).optional().describe('variables: a reference from the last stop, scopes or variables answer.'),
  expression: z.string().min(1).optional().describe('evaluate: an expression in the language of the program.'),
});

/** The debug tool's arguments. */
export type DebugParams = z.output<typeof debugParameters>;

const DESCRIPTION = `Drive a debugger (Debug Adapter Protocol) on a program in the working directory: breakpoints, launch, step, and inspect the stack and variables. One session per conversation; it is terminated after 30 minutes.

Typical flow: adapters (what can debug here) → breakpoints {file, lines} → launch {program, args} → the answer shows where it stopped, the source around that line and the local variables → variables {reference} / evaluate {expression} / step_over / step_in / step_out / continue → terminate when done.

Actions and arguments:
- adapters: which adapters (debugpy, lldb, delve, js, dart, ...) are usable here, and why the others are not.
- status: whether a session runs, where it stopped, the breakpoints.
- breakpoints {file, lines} / {functions} / {exceptions}: replaces the file's line breakpoints ([] clears), the function breakpoints, or where exceptions stop (["uncaught"] by default, ["all"], []); allowed before launch. A line may be {line, condition: "i > 5"}, {line, hit_condition: "3"} or a logpoint {line, log_message: "x is {x}"} that prints to output without stopping. Nothing given: lists all. The answer says which breakpoints the adapter verified; an unverified one will not stop the program (pick a line with a statement), and one needing a kind the adapter lacks is not set.
- launch {program, args?, adapter?, python?}: runs the program stopped at your breakpoints. The adapter is chosen by file type (.py debugpy, .go delve, .js/.mjs/.cjs/.ts js (js-debug; TypeScript through the project's tsx or ts-node, or its source-mapped compiled output; breakpoints go on the .ts lines), .dart dart, native executables lldb) and a project root marker; pass adapter to choose. Python runs under the project's .venv/bin/python, venv/bin/python, else python3 on PATH (python overrides). C/C++/Rust: build with debug info (gcc -g -O0) and launch the executable.
- attach {port, adapter?}: attach to a debuggee already listening on 127.0.0.1:port (python -m debugpy --listen PORT ..., node --inspect=PORT app.js).
- continue / pause / step_over / step_in / step_out {thread_id?}: default thread is the one that stopped.
- threads; stack {thread_id?} (30 frames); scopes {frame_id}; variables {reference} (50 children, values cut at 400 characters); evaluate {expression, frame_id?} (default: the top frame).
- output: the newest part of the program's stdout/stderr. terminate: ends the session, kills the program and the adapter.

launch, continue, pause and the steps wait up to 15 s and answer with one snapshot: why it stopped, the location with source lines, the locals; or the exit code and output; or that it is still running (then call continue to keep waiting, or pause). Frame ids and references are valid only until the program moves: after a step or continue use the ones in the new answer. A second launch while a session runs is refused: terminate first. Launching runs the program's code.`;

/** The `debug` tool, bound to a supervisor and the run's working directory and conversation. */
export function debugTool(supervisor: DebugSupervisor, defaults: { cwd: string; conversationId: string }) {
  return defineTool({
    name: 'debug',
    tier: 'exec',
    description: DESCRIPTION,
    parameters: debugParameters,
    parallelSafe: false,
    // launch may wait for delve to compile (90 s) and then 15 s for the first stop.
    timeoutMs: 180_000,
    async execute(params, ctx): Promise<ToolResult> {
      const cwd = ctx.cwd ?? defaults.cwd;
      const conversation = supervisor.conversation(ctx.conversationId ?? defaults.conversationId);
      await conversation.checkExpiry();
      // A session that is shutting down (expired, crashed, exited) finishes first, so every answer can say how it ended.
      await conversation.session?.whenEnded();
      const notice = conversation.takeNotice();
      const op: OpContext = { supervisor, conversation, cwd, signal: ctx.signal, report: (p) => ctx.reportProgress(p) };
      let result: ToolResult;
      try {
        result = await guarded(op, () => dispatch(op, params));
      } catch (error) {
        // Caught, not left to the registry, so a notice about the last session still leads the answer.
        rethrowUnexpected(error);
        result = toolErrorResult(error);
      }
      return notice ? prepend(notice, result) : result;
    },
  });
}

function dispatch(op: OpContext, p: DebugParams): Promise<ToolResult> {
  switch (p.action) {
    case 'adapters':
      return adapters(op);
    case 'status':
      return status(op);
    case 'breakpoints':
      return breakpoints(op, {
        ...(p.file !== undefined ? { file: p.file } : {}),
        ...(p.lines !== undefined ? { lines: p.lines.map(toLineRequest) } : {}),
        ...(p.functions !== undefined ? { functions: p.functions.map(toFunctionRequest) } : {}),
        ...(p.exceptions !== undefined ? { exceptions: p.exceptions } : {}),
      });
    case 'launch':
      return launch(op, need(p.program, 'launch', 'program', 'the program to run, e.g. "src/main.py"'), p.args ?? [], p.adapter, p.python);
    case 'attach':
      return attach(op, need(p.port, 'attach', 'port', 'the loopback port the debuggee listens on'), p.adapter);
    case 'continue':
      return resume(op, p.thread_id);
    case 'pause':
      return pause(op, p.thread_id);
    case 'step_over':
      return step(op, 'next', p.thread_id);
    case 'step_in':
      return step(op, 'stepIn', p.thread_id);
    case 'step_out':
      return step(op, 'stepOut', p.thread_id);
    case 'threads':
      return threads(op);
    case 'stack':
      return stack(op, p.thread_id);
    case 'scopes':
      return scopes(op, need(p.frame_id, 'scopes', 'frame_id', 'a frame id from the last stop or stack answer'));
    case 'variables':
      return variables(op, need(p.reference, 'variables', 'reference', 'a reference from the last stop, scopes or variables answer'));
    case 'evaluate':
      return evaluate(op, need(p.expression, 'evaluate', 'expression', 'the expression to evaluate'), p.frame_id);
    case 'output':
      return output(op);
    case 'terminate':
      return terminate(op);
  }
}

function toLineRequest(item: z.output<typeof lineBreakpoint>): LineRequest {
  if (typeof item === 'number') return { line: item };
  return {
    line: item.line,
    ...(item.condition !== undefined ? { condition: item.condition } : {}),
    ...(item.hit_condition !== undefined ? { hitCondition: canonicalHits(item.hit_condition) } : {}),
    ...(item.log_message !== undefined ? { logMessage: item.log_message } : {}),
  };
}

function toFunctionRequest(item: z.output<typeof functionBreakpoint>): FunctionRequest {
  if (typeof item === 'string') return { name: item };
  return {
    name: item.name,
    ...(item.condition !== undefined ? { condition: item.condition } : {}),
    ...(item.hit_condition !== undefined ? { hitCondition: canonicalHits(item.hit_condition) } : {}),
  };
}

/** A hit condition the schema accepted, spaced one way (">=3 " reads ">= 3") for the book and the answers. */
function canonicalHits(text: string): string {
  return text.trim().replace(/^(==|>=|<=|>|<|%)\s*/, '$1 ');
}

function need<T>(value: T | undefined, action: string, field: string, what: string): T {
  if (value === undefined) throw new DebugError('invalid_argument', `${action} needs ${field}: ${what}.`);
  return value;
}

function prepend(notice: string, result: ToolResult): ToolResult {
  const first = result.content[0];
  if (first?.type === 'text') return { ...result, content: [{ type: 'text', text: `${notice}\n\n${first.text}` }, ...result.content.slice(1)] };
  return { ...result, content: [textResult(notice).content[0]!, ...result.content] };
}
