import { AgentToolsError, errorSentence, messageOf } from './errors.js';
import { errorResult, type ToolResult } from './result.js';

/** The structured data of an error result made from an {@link AgentToolsError}. */
export interface ErrorData {
  /** The error's code. */
  readonly error: string;
}

/**
 * The error result of a thrown {@link AgentToolsError}: its sentence (detail and hint, no package prefix) and
 * `{ error: code }`, merged with `structured` when a tool adds context. The registry renders every thrown
 * AgentToolsError this way; a tool calls it only when it catches to add context or to go on.
 */
export function toolErrorResult<S extends object = object>(error: AgentToolsError, structured?: S): ToolResult<ErrorData & S> {
  return errorResult(errorSentence(error), { error: error.code, ...structured } as ErrorData & S);
}

/**
 * How the registry answers a call whose tool threw: an {@link AgentToolsError} as {@link toolErrorResult}, and
 * anything else (a bug, an unexpected failure) as "<tool> failed: <message>". The second tells `expected` false
 * so the registry can report it to the harness's `onError`.
 */
export function thrownResult(toolName: string, error: unknown): { result: ToolResult; expected: boolean } {
  if (AgentToolsError.isInstance(error)) return { result: toolErrorResult(error), expected: true };
  return { result: errorResult(`${toolName} failed: ${messageOf(error)}`), expected: false };
}
