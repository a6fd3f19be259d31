import type { Diagnostic, FileCheck, PendingPart } from './diagnostic.js';

/** A checker still pending for a written file, as a report names it. */
export interface PendingName {
  readonly name: string;
  /** The call that gets its diagnostics now. */
  readonly next?: string;
}

/** The sources whose diagnostics the given parts report (their names when they do not say). */
export function partSources(parts: readonly PendingPart[]): Set<string> {
  return new Set(parts.flatMap((part) => part.sources ?? [part.name]));
}

/** `eslint`, `eslint and biome`, `eslint, biome and stylelint`. */
export function names(list: readonly string[]): string {
  return list.length <= 1 ? (list[0] ?? '') : `${list.slice(0, -1).join(', ')} and ${list.at(-1)}`;
}

/**
 * The whole diagnostics of a checked file once its pending parts arrive, for a caller that can only take the file as
 * one piece; `undefined` when a part gave up, since without it the file is not verified.
 */
export async function wholeCheck(check: Extract<FileCheck, { state: 'checked' }>): Promise<readonly Diagnostic[] | undefined> {
  const parts = await Promise.all((check.pending ?? []).map((part) => part.settled));
  if (parts.some((part) => part === undefined)) return undefined;
  return [...check.diagnostics, ...parts.flatMap((part) => part ?? [])];
}

/**
 * The first line of a write's answer when some checkers of a file had not answered: which ones, and how to get their
 * diagnostics, so the model neither reads the rest as the whole answer nor waits blindly.
 */
export function pendingPartsLine(path: string, pending: readonly PendingName[], budget: string): string {
  const who = names(pending.map((p) => p.name));
  const calls = [...new Set(pending.flatMap((p) => (p.next ? [p.next] : [])))];
  const now = calls.length ? `, or ${calls.join('; or ')} to get them now` : '';
  return `INCOMPLETE: diagnostics of ${path} from ${who} are still pending (no answer within ${budget}); they will be appended to a later result${now}. The diagnostics below are from the other checkers only.`;
}

/** A pending part's late answer found nothing new. */
export function noNewFrom(path: string, name: string): string {
  return `No new diagnostics in ${path} from ${name}.`;
}
