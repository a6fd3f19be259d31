import { readRegularFile } from '@agent-tools/core';
import type { LanguageSpec } from '../languages.js';
import type { TreeSitterLoader } from '../loader.js';
import type { MatchRecord } from '../match/find.js';
import { indentUnit } from '../rewrite/indent.js';
import { renderReplacement } from '../rewrite/render.js';
import type { RewriteTemplate } from '../rewrite/template.js';
import type { FileMatches } from '../workspace/search.js';
import type { StagedFile } from './edit-store.js';

/** A comment inside a replaced match that the rewrite does not carry over. */
export interface DroppedComment {
  readonly file: string;
  /** 1-based. */
  readonly line: number;
  readonly text: string;
}

/** A file the rewrite leaves with more syntax errors than it had. */
export interface BrokenFile {
  readonly file: string;
  /** 1-based lines of the syntax errors after the rewrite. */
  readonly lines: readonly number[];
  /** How many it had before. */
  readonly before: number;
}

/** The files an edit would change, and what it left alone. */
export interface Proposal {
  readonly files: readonly StagedFile[];
  readonly replacements: number;
  /** Matches nested inside a replaced match (the outermost wins). */
  readonly innerLeft: number;
  /** Files the rewrite leaves with more syntax errors than before. */
  readonly breaks: readonly BrokenFile[];
  /** Comments inside replaced matches, outside every capture the rewrite uses: the rewrite deletes them. */
  readonly droppedComments: readonly DroppedComment[];
  /** Files left out because they changed during the search or are not valid UTF-8. */
  readonly unstable: readonly string[];
}

/**
 * Computes the new content of every matching file: matches replaced back to front, the outermost of nested
 * matches winning. Each file's bytes are checked against the text that was matched, so the staged original
 * is exactly what is on disk. Every comment the rewrite would delete, and every file it would leave with more
 * syntax errors than before, is named.
 */
export async function propose(
  loader: TreeSitterLoader,
  spec: LanguageSpec,
  results: readonly FileMatches[],
  template: RewriteTemplate,
): Promise<Proposal> {
  const files: StagedFile[] = [];
  const breaks: BrokenFile[] = [];
  const droppedComments: DroppedComment[] = [];
  const unstable: string[] = [];
  let replacements = 0;
  let innerLeft = 0;
  for (const result of results) {
    const text = result.text;
    if (text === undefined) continue;
    const bytes = await readRegularFile(result.absolute).then(
      (read) => read.bytes,
      () => undefined,
    );
    if (!bytes?.equals(Buffer.from(text, 'utf8'))) {
      unstable.push(result.file);
      continue;
    }
    const stringLines = new Set(result.stringLines ?? []);
    const ctx = { source: text, stringLines, unit: indentUnit(text, stringLines) };
    const { kept, inner } = outermost(result.matches);
    innerLeft += inner;
    let updated = text;
    let changed = 0;
    const dropped: DroppedComment[] = [];
    for (let i = kept.length - 1; i >= 0; i--) {
      const match = kept[i] as MatchRecord;
      const rendered = renderReplacement(template, match, ctx);
      if (rendered.text === match.text) continue;
      updated = updated.slice(0, match.start) + rendered.text + updated.slice(match.end);
      changed++;
      // Matches go back to front: this match's comments come before those already collected.
      const lost = (match.comments ?? []).filter((c) => !rendered.used.some((u) => u.start <= c.start && c.end <= u.end));
      dropped.unshift(...lost.map((c) => ({ file: result.file, line: c.row + 1, text: c.text })));
    }
    if (changed === 0) continue;
    replacements += changed;
    droppedComments.push(...dropped);
    files.push({ file: result.file, absolute: result.absolute, original: text, updated, replacements: changed });
    const after = await loader.syntaxErrorLines(spec, updated);
    if (after.length > 0) {
      // Errors merge and lines move, so a count alone can hide a new error: any error on a line that had none
      // before is reported too (erring on the side of a warning in a file that was already broken).
      const before = await loader.syntaxErrorLines(spec, text);
      const known = new Set(before);
      if (after.length > before.length || after.some((line) => !known.has(line))) {
        breaks.push({ file: result.file, lines: after, before: before.length });
      }
    }
  }
  return { files, replacements, innerLeft, breaks, droppedComments, unstable };
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
