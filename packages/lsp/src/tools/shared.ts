import { resolveInside, type ToolProgress, type ToolResult, textResult, toolErrorResult } from '@agent-tools/core';
import { rethrowUnexpected } from '@agent-tools/core/internal';
import type { Position, ServerCapabilities } from 'vscode-languageserver-protocol';
import { LspError } from '../errors.js';
import { locateSymbol, type SymbolPosition } from '../position/locate-symbol.js';
import type { OpenDocument } from '../server/documents.js';
import type { LanguageServer } from '../server/language-server.js';
import { awaitComplete, type Completeness } from '../server/readiness.js';
import type { LspSupervisor } from '../supervisor.js';
import type { CodeActionListings } from './code-action-listings.js';

/** What the tools share: the supervisor, the working directory, and the code actions last listed per file. */
export interface ToolEnv {
  readonly supervisor: LspSupervisor;
  readonly cwd: string;
  readonly listings: CodeActionListings;
}

/** A position request resolved: the server, the synced document and the symbol's position. */
export interface Target {
  readonly server: LanguageServer;
  readonly doc: OpenDocument;
  readonly position: SymbolPosition;
  /** The position as the server counts lines (differs from `position` only where the server breaks lines LSP does not). */
  readonly at: Position;
  /** The symbol as written there. */
  readonly symbol: string;
  /** Workspace-relative path of the file. */
  readonly file: string;
  readonly path: string;
  /**
   * When the name asked for is only part of a longer identifier on that line (`Observer` in `NextObserver`): the
   * line that says the answer is about the longer one, which answers put first. '' otherwise.
   */
  readonly partialLine: string;
}

/** Resolves a file argument inside the working directory; it must exist and be a file. */
export function resolveFile(env: ToolEnv, file: string | undefined, action: string): { path: string; file: string } {
  if (file === undefined || file.trim() === '') {
    throw new LspError('bad_position', `The ${action} action needs "file": a path relative to the working directory.`);
  }
  const resolved = resolveInside(env.cwd, file, { mustExist: true, kind: 'file' });
  return { path: resolved.absolute, file: resolved.relative };
}

/** The server of a file, with the file synced from disk. */
export async function openFile(env: ToolEnv, file: string | undefined, action: string, signal: AbortSignal) {
  const { path, file: rel } = resolveFile(env, file, action);
  const server = await env.supervisor.serverFor(path, signal);
  const doc = server.open(path);
  if (!doc) throw new LspError('bad_position', `${rel} could not be read.`);
  return { server, doc, path, file: rel };
}

/** Resolves `file` + `line` + `symbol` (+ `occurrence`) to a server position. */
export async function openTarget(
  env: ToolEnv,
  params: { file?: string | undefined; line?: number | undefined; symbol?: string | undefined; occurrence?: number | undefined },
  action: string,
  signal: AbortSignal,
): Promise<Target> {
  if (params.line === undefined) {
    throw new LspError('bad_position', `The ${action} action needs "file", "line" (1-based) and "symbol" (the name as written on that line).`);
  }
  const opened = await openFile(env, params.file, action, signal);
  const position = locateSymbol(opened.doc.text, params.line, params.symbol, params.occurrence, opened.file);
  const at = opened.server.positions.toServer(opened.path, { line: position.line, character: position.character });
  const symbol = position.lineText.slice(position.character, position.character + position.length);
  return { ...opened, position, at, symbol, partialLine: partialLine(params.symbol ?? '', position) };
}

/** The first line of an answer given for a longer identifier than the one asked about. */
function partialLine(asked: string, position: SymbolPosition): string {
  if (position.within === undefined) return '';
  const wanted = asked.trim();
  const whole = position.wholeOn?.length
    ? ` (\`${wanted}\` itself is a whole name on line${position.wholeOn.length > 1 ? 's' : ''} ${position.wholeOn.join(', ')})`
    : '';
  return `\`${wanted}\` is part of \`${position.within}\` on line ${position.line + 1}; answering for \`${position.within}\`${whole}.\n`;
}

/** The first lines of an answer about a position: INCOMPLETE when it is, then a note when it is about a longer name. */
export function leadOf(target: Target, completeness: Completeness): string {
  return `${incompleteLine(completeness)}${target.partialLine}`;
}

/**
 * Waits until the server has finished indexing or loading the workspace, within the supervisor's budget. The
 * answer's first line must carry `incompleteLine` of what this returns when it is not complete.
 */
export function whenComplete(env: ToolEnv, server: LanguageServer, signal: AbortSignal, report?: Reporter): Promise<Completeness> {
  return awaitComplete(server, env.supervisor.indexWaitMs, signal, report);
}

/** A call's progress listener (the registry's `ctx.reportProgress`): long waits say what they wait for. */
export type Reporter = (progress: ToolProgress) => void;

/**
 * Asks once the server has finished indexing or loading (within the budget), and asks again when it began such
 * work while the question was on its way (a server that starts indexing when a file is opened): the answer
 * returned is the one given after the work, or says it is incomplete.
 */
export async function askWhenComplete<T>(
  env: ToolEnv,
  server: LanguageServer,
  signal: AbortSignal,
  ask: () => Promise<T>,
  report?: Reporter,
): Promise<{ answer: T; completeness: Completeness }> {
  let completeness = await whenComplete(env, server, signal, report);
  const begun = server.work.begun;
  const answer = await ask();
  if (server.work.active.length === 0 && server.work.begun === begun) return { answer, completeness };
  completeness = await whenComplete(env, server, signal, report);
  return { answer: await ask(), completeness };
}

/** The first line of an answer computed before the server finished indexing. */
export function incompleteLine(completeness: Completeness): string {
  return completeness.complete ? '' : `INCOMPLETE: ${completeness.reason}; this answer may miss results. Call again in a moment for the complete answer.\n`;
}

/**
 * Refuses an action the server does not offer, before sending it (a server answers unknown methods with an
 * opaque error, or not at all).
 */
export function requireCapability(server: LanguageServer, capability: keyof ServerCapabilities, action: string, instead: string): void {
  if (server.capabilities[capability]) return;
  throw new LspError('unsupported', `${server.config.name} does not offer ${action}. ${instead}`);
}

/** Appends the supervisor's notes (a server crashed and was restarted) to a result. */
export function withNotes(env: ToolEnv, result: ToolResult): ToolResult {
  const notes = env.supervisor.takeNotes();
  if (notes.length === 0) return result;
  return { ...result, content: [...result.content, { type: 'text', text: notes.map((n) => `Note: ${n}`).join('\n') }] };
}

/**
 * The answer for a thrown AgentToolsError (lsp's or core's), as core renders it, with the action beside its code.
 * Anything else is a bug, not an answer: it is thrown again, so the registry reports it to the harness's `onError`
 * once and answers "<tool> failed: …" (the supervisor's notes wait for the next answer).
 */
export function failure(error: unknown, structured?: Record<string, unknown>): ToolResult {
  rethrowUnexpected(error);
  return toolErrorResult(error, structured);
}

/** A successful result with structured data. */
export function ok<S>(text: string, structured: S): ToolResult<S> {
  return textResult(text, structured);
}
