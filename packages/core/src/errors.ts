/**
 * The brand of every {@link AgentToolsError}. `Symbol.for` makes it the same symbol in every copy of core, so an
 * error thrown by a package built against one copy is still recognised by a registry from another.
 */
const BRAND = Symbol.for('@agent-tools/core/error');

/** What an {@link AgentToolsError} may carry besides its code and sentence. */
export interface AgentToolsErrorOptions {
  /** What to do next, when the sentence alone does not say it ("Call lsp with action "status" ..."). */
  readonly hint?: string | undefined;
  readonly cause?: unknown;
}

/**
 * The base of every package's error class. `detail` is the sentence written for the model (what went wrong),
 * `hint` what to call next; `message` adds the package's name in front (`[agent-tools/lsp] ...`) for logs.
 * The registry turns a thrown one into an error result whose text is {@link errorSentence} and whose structured
 * data is `{ error: code }`, so a tool can simply throw.
 *
 * `instanceof AgentToolsError` and {@link AgentToolsError.isInstance} hold across two copies of core.
 */
export class AgentToolsError<Code extends string = string> extends Error {
  override readonly name: string = 'AgentToolsError';
  /** The package that threw it, without the scope: `core`, `lsp`, `debug` ... */
  readonly package: string;
  /** Machine-readable, for programs that branch without parsing text. */
  readonly code: Code;
  /** The sentence without the package prefix and without the hint. */
  readonly detail: string;
  readonly hint: string | undefined;

  constructor(pkg: string, code: Code, detail: string, options: AgentToolsErrorOptions = {}) {
    const hint = options.hint?.trim() || undefined;
    super(`[agent-tools/${pkg}] ${hint ? `${detail} ${hint}` : detail}`, 'cause' in options ? { cause: options.cause } : undefined);
    this.package = pkg;
    this.code = code;
    this.detail = detail;
    this.hint = hint;
    Object.defineProperty(this, BRAND, { value: true });
  }

  /** Whether a value is an AgentToolsError, from this copy of core or any other. */
  static isInstance(value: unknown): value is AgentToolsError {
    return typeof value === 'object' && value !== null && (value as { [BRAND]?: unknown })[BRAND] === true;
  }

  // `instanceof AgentToolsError` answers by brand; `instanceof` a subclass keeps the ordinary prototype check.
  // `this` is the class on the right of `instanceof`, which is the point (a subclass inherits this method).
  static override [Symbol.hasInstance](value: unknown): boolean {
    // biome-ignore lint/complexity/noThisInStatic: the class instanceof asks about, not always this one
    if (this === AgentToolsError) return AgentToolsError.isInstance(value);
    // biome-ignore lint/complexity/noThisInStatic: as above
    return Function.prototype[Symbol.hasInstance].call(this, value);
  }
}

/**
 * Whether a value is an {@link AgentToolsError} of a package (any when omitted), optionally of one of the codes.
 * Works across copies of core and of the package.
 */
export function isAgentToolsError<Code extends string = string>(
  value: unknown,
  pkg?: string,
  ...codes: readonly Code[]
): value is AgentToolsError<Code> {
  if (!AgentToolsError.isInstance(value)) return false;
  if (pkg !== undefined && value.package !== pkg) return false;
  return codes.length === 0 || codes.includes(value.code as Code);
}

/** Machine-readable codes of {@link CoreError}. */
export type CoreErrorCode =
  | 'outside_workspace'
  | 'invalid_path'
  | 'not_regular_file'
  | 'file_lock_cycle'
  | 'duplicate_tool'
  | 'invalid_definition'
  | 'disposed';

/**
 * The one error class of `@agent-tools/core`. Its message names the package and says what to do; the `code`
 * lets programs branch without parsing text.
 */
export class CoreError extends AgentToolsError<CoreErrorCode> {
  override readonly name = 'CoreError';

  constructor(code: CoreErrorCode, detail: string, options?: AgentToolsErrorOptions) {
    super('core', code, detail, options);
  }
}

/** The message of any thrown value, without a stack, for a model-facing sentence. */
export function messageOf(error: unknown): string {
  if (error instanceof Error) return error.message;
  if (typeof error === 'string') return error;
  try {
    return JSON.stringify(error) ?? String(error);
  } catch {
    // JSON.stringify throws only on a cycle or a BigInt: String() still describes the value.
    return String(error);
  }
}

/**
 * What went wrong, for a sentence that already names the tool ("The kernel could not be started: ..."): an
 * {@link AgentToolsError}'s detail without the package prefix or hint, anything else as its message.
 */
export function errorDetail(error: unknown): string {
  return AgentToolsError.isInstance(error) ? error.detail : messageOf(error);
}

/**
 * The whole sentence the model reads for a thrown value: an {@link AgentToolsError}'s detail and hint, without
 * the package prefix; anything else as its message.
 */
export function errorSentence(error: unknown): string {
  if (!AgentToolsError.isInstance(error)) return messageOf(error);
  return error.hint ? `${error.detail} ${error.hint}` : error.detail;
}

/**
 * The one policy for a caught error: an AgentToolsError is an answer the caller may render or go on from; anything
 * else is a bug, thrown again so that it reaches the registry, which reports it to the harness's `onError` once and
 * answers "<tool> failed: …". Call it first in a catch that turns errors into answers or partial results.
 */
export function rethrowUnexpected(error: unknown): asserts error is AgentToolsError {
  if (!AgentToolsError.isInstance(error)) throw error;
}
