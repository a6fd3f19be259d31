import { defineTool, textResult } from '@agent-tools/core';
import { countOfTotal, plural } from '@agent-tools/core/internal';
import { z } from 'zod';
import {
  caveats,
  type MatchInfo,
  matchInfo,
  noMatchText,
  oneLine,
  readingFirst,
  scopeText,
  shownCaptures,
  shownText,
} from '../format/search-report.js';
import type { TreeSitterLoader } from '../loader.js';
import type { MatchRecord } from '../match/find.js';
import { isRule } from '../rules/types.js';
import { type SearchSummary, searchWorkspace } from '../workspace/search.js';
import {
  constraintsParameter,
  languageParameter,
  PATTERN_GUIDE,
  pathParameter,
  patternParameter,
  RULE_GUIDE,
  ruleParameter,
  utilsParameter,
} from './shared.js';

/** Parameters of `ast_grep`. */
export const astGrepParameters = z.object({
  pattern: patternParameter,
  rule: ruleParameter,
  constraints: constraintsParameter,
  utils: utilsParameter,
  path: pathParameter,
  language: languageParameter,
  max_results: z
    .number()
    .int()
    .min(1)
    .max(500)
    .default(50)
    .describe('Matches shown (default 50); the total is always counted.'),
  offset: z
    .number()
    .int()
    .min(0)
    .default(0)
    .describe('Matches to skip first (default 0), in the stable order of the answer (by file path, then position): a long result is read whole by calling again with the offset the answer names.'),
});

/** The `structured` part of an `ast_grep` result. */
export interface AstGrepResult {
  readonly language: string;
  readonly path: string;
  readonly matches: readonly MatchInfo[];
  readonly totalMatches: number;
  readonly shownMatches: number;
  /** Matches skipped before the first shown (the `offset` asked for). */
  readonly offset: number;
  /** The offset that shows the next matches, when there are more. */
  readonly nextOffset?: number;
  readonly filesWithMatches: number;
  readonly filesSearched: number;
  readonly filesWithSyntaxErrors: readonly string[];
  readonly filesNotSearched: readonly string[];
}

const DESCRIPTION = [
  'Find code by its shape (syntax tree), not its text: calls, arguments, nesting, repeated expressions.',
  PATTERN_GUIDE,
  RULE_GUIDE,
  'Searches every file of the language under `path` (honouring .gitignore; node_modules, hidden and binary files are skipped) and returns each match with file, line range, matched text and captured metavariables, grouped by file; files that do not parse cleanly are named.',
  'A result with no match says what was searched (files, language) so you can tell "not there" from "searched the wrong place".',
  'Read-only. To rewrite what it finds, use ast_edit with the same pattern.',
].join(' ');

/** Creates `ast_grep` over a loader, for a working directory. */
export function createAstGrepTool(loader: TreeSitterLoader, cwd: string) {
  return defineTool({
    name: 'ast_grep',
    tier: 'read',
    description: DESCRIPTION,
    parameters: astGrepParameters,
    parallelSafe: true,
    async execute(params, ctx) {
      const summary = await searchWorkspace(loader, ctx.cwd ?? cwd, params, {
        // A file's matches after the last one this answer can show are counted, not recorded.
        keep: params.offset + params.max_results,
        signal: ctx.signal,
        onProgress: (progress) => ctx.reportProgress(progress),
      });
      return report(summary, params.max_results, params.offset);
    },
  });
}

function report(summary: SearchSummary, maxResults: number, offset: number) {
  const items = page(summary, offset, maxResults);
  const total = summary.totalMatches;
  const next = offset + items.length < total ? offset + items.length : undefined;
  const structured: AstGrepResult = {
    language: summary.spec.id,
    path: summary.scope,
    matches: items.map(({ file, match }) => matchInfo(file, match)),
    totalMatches: summary.totalMatches,
    shownMatches: items.length,
    offset,
    ...(next !== undefined ? { nextOffset: next } : {}),
    filesWithMatches: summary.results.length,
    filesSearched: summary.filesSearched,
    filesWithSyntaxErrors: summary.syntaxErrors.map((e) => e.file),
    filesNotSearched: [...summary.failures.map((f) => f.file), ...summary.binary, ...summary.tooLarge, ...summary.notRegular.map((e) => e.file)],
  };
  if (summary.totalMatches === 0) {
    return textResult([...readingFirst(summary), noMatchText(summary), ...caveats(summary)].join('\n'), structured);
  }
  const head = `${plural(summary.totalMatches, 'match')} of ${isRule(summary.pattern) ? `the rule ${oneLine(summary.pattern.source)}` : `\`${oneLine(summary.pattern.source)}\``} in ${plural(summary.results.length, 'file')} (searched ${scopeText(summary)})`;
  // An answer that shows only part of the matches says so in its first line, with how to read on.
  const range = items.length === total ? '' : items.length === 0 ? `; none shown: offset ${offset} is past the last match` : `; ${offset + 1}-${offset + items.length} shown`;
  const more = next !== undefined ? `; continue with offset ${next}` : '';
  const lines = [...readingFirst(summary), `${head}${range}${more}.`];
  let current = '';
  for (const { file, match } of items) {
    if (file !== current) {
      current = file;
      const count = summary.results.find((r) => r.file === file)?.count ?? 0;
      lines.push('', `${file} (${plural(count, 'match')})`);
    }
    const range = match.startRow === match.endRow ? `${match.startRow + 1}` : `${match.startRow + 1}-${match.endRow + 1}`;
    const [first = '', ...rest] = shownText(match);
    lines.push(`  ${range}: ${first}`);
    const pad = ' '.repeat(range.length + 4);
    for (const line of rest) lines.push(pad + line);
    for (const capture of shownCaptures(match)) lines.push(`${pad}${capture}`);
  }
  if (next !== undefined) {
    lines.push('', `${countOfTotal(items.length, total)} shown (from match ${offset + 1}); continue with offset ${next}, or narrow \`path\` or the pattern.`);
  }
  const notes = caveats(summary);
  if (notes.length) lines.push('', ...notes);
  return textResult(lines.join('\n'), structured);
}

/**
 * The matches from `offset` on, at most `max`, in the answer's order (file path, then position). Each file recorded
 * its first `offset + max` matches and counted the rest, which is all a page can take from one file.
 */
function page(summary: SearchSummary, offset: number, max: number): { file: string; match: MatchRecord }[] {
  const out: { file: string; match: MatchRecord }[] = [];
  let before = 0;
  for (const result of summary.results) {
    if (out.length >= max) break;
    const from = Math.max(0, offset - before);
    for (let i = from; i < result.count && out.length < max; i++) {
      const match = result.matches[i];
      if (!match) throw new Error(`match ${i + 1} of ${result.file} was not recorded`);
      out.push({ file: result.file, match });
    }
    before += result.count;
  }
  return out;
}
