import { readFile } from 'node:fs/promises';
import type { LanguageSpec } from '../languages.js';
import type { TreeSitterLoader } from '../loader.js';
import type { MatchRecord } from '../match/find.js';
import { renderReplacement, type RewriteTemplate } from '../rewrite/template.js';
import type { FileMatches } from '../workspace/search.js';
import type { StagedFile } from './edit-store.js';

/** The files an edit would change, and what it left alone. */
export interface Proposal {
  readonly files: readonly StagedFile[];
  readonly replacements: number;
  /** Matches nested inside a replaced match (the outermost wins). */
  readonly innerLeft: number;
  /** Files whose rewritten text no longer parses, with the first error's line. */
  readonly breaks: readonly { readonly file: string; readonly line: number }[];
  /** Files left out because they changed during the search or are not valid UTF-8. */
  readonly unstable: readonly string[];
}

/**
 * Computes the new content of every matching file: matches replaced back to front, the outermost of nested
 * matches winning. Each file's bytes are checked against the text that was matched, so the staged original
 * is exactly what is on disk.
 */
export async function propose(
  loader: TreeSitterLoader,
  spec: LanguageSpec,
  results: readonly FileMatches[],
  template: RewriteTemplate,
  cleanBefore: (file: string) => boolean,
): Promise<Proposal> {
  const files: StagedFile[] = [];
  const breaks: { file: string; line: number }[] = [];
  const unstable: string[] = [];
  let replacements = 0;
  let innerLeft = 0;
  for (const result of results) {
    const text = result.text;
    if (text === undefined) continue;
    const bytes = await readFile(result.absolute).catch(() => undefined);
    if (!bytes?.equals(Buffer.from(text, 'utf8'))) {
      unstable.push(result.file);
      continue;
    }
    const { kept, inner } = outermost(result.matches);
    innerLeft += inner;
    let updated = text;
    let changed = 0;
    for (let i = kept.length - 1; i >= 0; i--) {
      const match = kept[i] as MatchRecord;
      const replacement = renderReplacement(template, match, text);
      if (replacement === match.text) continue;
      updated = updated.slice(0, match.start) + replacement + updated.slice(match.end);
      changed++;
    }
    if (changed === 0) continue;
    replacements += changed;
    files.push({ file: result.file, absolute: result.absolute, original: text, updated, replacements: changed });
    if (cleanBefore(result.file)) {
      const line = await loader.firstSyntaxError(spec, updated);
      if (line !== undefined) breaks.push({ file: result.file, line });
    }
  }
  return { files, replacements, innerLeft, breaks, unstable };
}

/** Keeps the outermost of nested matches (tree nodes nest or are disjoint), in document order. */
export function outermost(matches: readonly MatchRecord[]): { kept: MatchRecord[]; inner: number } {
  const sorted = [...matches].sort((a, b) => a.start - b.start || b.end - a.end);
  const kept: MatchRecord[] = [];
  let inner = 0;
  let end = -1;
  for (const match of sorted) {
    if (match.start < end || (match.start === end && match.end === end && kept.length > 0)) {
      inner++;
      continue;
    }
    kept.push(match);
    end = match.end;
  }
  return { kept, inner };
}
