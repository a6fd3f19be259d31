import { defineTool, textResult } from '@agent-tools/core';
import { nounFor, plural } from '@agent-tools/core/internal';
import { z } from 'zod';
import { AstError } from '../errors.js';
import { caveats, list, noMatchText, oneLine, readingFirst } from '../format/search-report.js';
import type { TreeSitterLoader } from '../loader.js';
import { shownDiffLine, unifiedDiff } from '../rewrite/diff.js';
import { changedRanges, shownRanges } from '../rewrite/ranges.js';
import { prepareRewrite, type RewriteTemplate } from '../rewrite/template.js';
import { applyTransforms } from '../rules/transform.js';
import { isRule, type Query } from '../rules/types.js';
import type { EditStore } from '../staging/edit-store.js';
import { type Parenthesized, type Proposal, propose, type UnsafeReplacement, type UntouchedMatch } from '../staging/propose.js';
import type { FileMatches } from '../workspace/search.js';
import { searchWorkspace } from '../workspace/search.js';
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

/** Parameters of `ast_edit`. */
export const astEditParameters = z.object({
  pattern: patternParameter,
  rewrite: z
    .string()
    .describe(
      'The replacement for each match, with the pattern\'s metavariables substituted back ($NAME, $$$NAME; a list keeps its original separators). Multi-line rewrites are re-indented to the match. Empty deletes the matches.',
    ),
  rule: ruleParameter,
  constraints: constraintsParameter,
  utils: utilsParameter,
  transform: z
    .string()
    .optional()
    .describe(
      'JSON text: new metavariables for the rewrite, computed from captured ones (ast-grep\'s transform, object form): {"NAME": {"substring": {"source": "$A", "startChar": 1, "endChar": -1}}}, {"NAME": {"replace": {"source": "$A", "replace": "^get", "by": "fetch"}}}, {"NAME": {"convert": {"source": "$A", "toCase": "snakeCase"}}} (cases: lowerCase, upperCase, capitalize, camelCase, snakeCase, kebabCase, pascalCase; optional "separatedBy": ["dash", "dot", "slash", "space", "underscore", "caseChange"]). The rewriters form (`rewrite`) is not supported.',
    ),
  path: pathParameter,
  language: languageParameter,
});

/** The `structured` part of an `ast_edit` result. */
export interface AstEditResult {
  readonly editId?: string;
  readonly replacements: number;
  readonly files: readonly { readonly file: string; readonly replacements: number }[];
  readonly innerMatchesLeft: number;
  /** Files left with more syntax errors than before: the first error's line, every error's line, the count before. */
  readonly breaksSyntax: readonly { readonly file: string; readonly line: number; readonly lines: readonly number[]; readonly before: number }[];
  /** Comments inside replaced code that the rewrite deletes (1-based lines). */
  readonly droppedComments: readonly { readonly file: string; readonly line: number; readonly text: string }[];
  /** Matches found and not rewritten: the rewrite would delete code the pattern does not name, or keeping it would not parse. */
  readonly untouched: readonly UntouchedMatch[];
  /** Replacements that keep unnamed code after the part the pattern names. */
  readonly keptTails: number;
  /** Replacements that got parentheses so they bind as the template says. */
  readonly parenthesized: readonly Parenthesized[];
  /** Replacements whose binding could not be proved (re-parsed, not the template's shape): review them. */
  readonly unsafe: readonly UnsafeReplacement[];
  /** Every changed line range per file, original numbering. */
  readonly changedLines: readonly { readonly file: string; readonly ranges: readonly string[] }[];
  /** Lines of the whole diff (the text shows the first 150; resolve "show" pages through it). */
  readonly diffLines: number;
  readonly diff: string;
}

/**
 * Replacements one edit stages at most. Each is a record, a rendered text and a check on the re-parsed file (a
 * million one-line statements took 2.4 GB and a minute); a larger change is made in parts, a path at a time.
 */
export const MAX_REPLACEMENTS = 20_000;

/** Dropped comments named in the text before the rest is counted. */
const MAX_COMMENTS = 10;

/** Diff lines shown in the result before the rest is counted. */
export const MAX_DIFF_LINES = 150;

/** Places named in one line before the rest is counted. */
const MAX_NAMED = 5;

/** What the rewrite loses or could not make safe, one warning per kind: the proposal's first lines. */
function lossLines(proposal: Proposal): string[] {
  const lines: string[] = [];
  const more = (n: number, shown: number): string => (n > shown ? ` … and ${n - shown} more (structured lists all)` : '');
  if (proposal.droppedComments.length > 0) {
    const shown = proposal.droppedComments.slice(0, MAX_COMMENTS).map((c) => `  ${c.file}:${c.line}: ${oneLine(c.text)}`);
    lines.push(
      `Loses: ${plural(proposal.droppedComments.length, 'comment')} inside the replaced code, outside every metavariable the rewrite uses (comments next to a metavariable travel with it); put a metavariable around them or accept losing them:`,
      ...shown,
      ...(proposal.droppedComments.length > shown.length ? [`  ${more(proposal.droppedComments.length, shown.length).trim()}`] : []),
    );
  }
  if (proposal.unsafe.length > 0) {
    const shown = proposal.unsafe.slice(0, MAX_COMMENTS).map((u) => `  ${u.file}:${u.line}: ${oneLine(u.text)}${u.parts.length ? ` (parentheses tried around ${u.parts.join(', ')})` : ''}`);
    lines.push(
      `Unsafe: ${plural(proposal.unsafe.length, 'replacement')} may bind differently than the template says (re-parsed, ${proposal.unsafe.length === 1 ? 'it is' : 'they are'} not the template's shape, and parentheses did not help); review ${proposal.unsafe.length === 1 ? 'it' : 'them'}:`,
      ...shown,
      ...(proposal.unsafe.length > shown.length ? [`  ${more(proposal.unsafe.length, shown.length).trim()}`] : []),
    );
  }
  const unnamed = proposal.untouched.filter((u) => u.reason === 'unnamed');
  if (unnamed.length > 0) {
    const where = unnamed.slice(0, MAX_NAMED).map((u) => `${u.file}:${u.line} (\`${oneLine(u.text)}\` at line ${u.at})`);
    lines.push(
      `Not rewritten: ${plural(unnamed.length, 'match')} where the rewrite would delete code the pattern does not name: ${where.join(', ')}${more(unnamed.length, where.length)}. Write that code into the pattern and the rewrite to rewrite ${unnamed.length === 1 ? 'it' : 'them'}.`,
    );
  }
  const tails = proposal.untouched.filter((u) => u.reason === 'tail');
  if (tails.length > 0) {
    const where = tails.slice(0, MAX_NAMED).map((u) => `${u.file}:${u.line} (\`${oneLine(u.text).slice(0, 40)}\` at line ${u.at})`);
    lines.push(
      `Not rewritten: ${plural(tails.length, 'match')} where the code after what the pattern names would not parse after the rewrite: ${where.join(', ')}${more(tails.length, where.length)}. Name that code in the pattern (e.g. a $$$REST or the else clause) and place it in the rewrite.`,
    );
  }
  return lines;
}

const DESCRIPTION = [
  'Rewrite code by its shape: every match of `pattern` is replaced by `rewrite`, with the metavariables substituted back.',
  PATTERN_GUIDE,
  RULE_GUIDE,
  'Nothing is written: the change is staged and the result shows a unified diff preview and an edit id. Call resolve with that edit_id and action "accept" to write it (all files or none), or "discard". Review the diff first; if a file changes before you accept, the whole edit is rejected and you run ast_edit again.',
  'Where matches are nested, the outermost is rewritten and the inner ones are left as they are (the result says how many); run ast_edit again after accepting to reach them.',
  `One edit stages at most ${MAX_REPLACEMENTS.toLocaleString('en-US')} replacements; past that nothing is staged: rewrite a folder or a file at a time.`,
  'Comments inside a replaced match survive only inside a metavariable the rewrite uses; the result names every other comment it would delete (file:line and text), and every file it would leave with more syntax errors. Lines inside multi-line strings are never re-indented.',
  'Search first with ast_grep when unsure what the pattern matches.',
].join(' ');

/** Creates `ast_edit` over a loader and the run's staged edits. */
export function createAstEditTool(loader: TreeSitterLoader, store: EditStore, cwd: string) {
  return defineTool({
    name: 'ast_edit',
    tier: 'write',
    description: DESCRIPTION,
    parameters: astEditParameters,
    parallelSafe: true,
    async execute(params, ctx) {
      let template: RewriteTemplate | undefined;
      let query: Query | undefined;
      const summary = await searchWorkspace(loader, ctx.cwd ?? cwd, params, {
        wantText: true,
        // A file records one match past the most an edit stages: enough to tell it has too many.
        keep: MAX_REPLACEMENTS + 1,
        signal: ctx.signal,
        onCompiled: (pattern) => {
          query = pattern;
          template = prepareRewrite(params.rewrite, pattern);
        },
      });
      if (!template) throw new Error('the rewrite was not prepared');
      const empty: AstEditResult = {
        replacements: 0,
        files: [],
        innerMatchesLeft: 0,
        breaksSyntax: [],
        droppedComments: [],
        untouched: [],
        keptTails: 0,
        parenthesized: [],
        unsafe: [],
        changedLines: [],
        diffLines: 0,
        diff: '',
      };
      if (summary.totalMatches === 0) {
        return textResult([...readingFirst(summary), `Nothing to edit. ${noMatchText(summary)}`, ...caveats(summary)].join('\n'), empty);
      }
      const outermost = summary.results.reduce((n, r) => n + r.count - r.nested, 0);
      if (outermost > MAX_REPLACEMENTS) {
        const where = summary.results.map((r) => `${r.file} (${r.count - r.nested})`);
        throw new AstError(
          'too_many_matches',
          `${plural(outermost, 'match')} to rewrite${summary.results.length > 1 ? ` in ${plural(summary.results.length, 'file')} (${list(where)})` : ''}: one edit stages at most ${MAX_REPLACEMENTS.toLocaleString('en-US')}. Nothing was staged. Rewrite in parts: narrow \`path\` to a folder or a file at a time (accepting each part before the next), or make the pattern more specific.`,
        );
      }
      const results = query && isRule(query) && query.transform.length > 0 ? withTransforms(summary.results, query.transform) : summary.results;
      const proposal = await propose(loader, summary.spec, results, template);
      // A file left out has matches the edit does not rewrite: the answer is incomplete, and says so first.
      const leftOut = proposal.unstable.length
        ? [`Incomplete: left out because they changed during the search or are not valid UTF-8 (their bytes could not be written back as they are): ${list(proposal.unstable)}.`]
        : [];
      if (proposal.replacements === 0) {
        const unstable = new Set(proposal.unstable);
        const kept = summary.results.filter((r) => !unstable.has(r.file)).reduce((n, r) => n + r.count, 0);
        const text =
          kept === 0
            ? `Nothing to edit: every match is in a file left out.`
            : proposal.untouched.length
              ? `Nothing to edit: none of the ${plural(kept, 'match')} can be rewritten without losing code the pattern does not name.`
              : `Nothing to edit: the ${plural(kept, 'match')} already read${kept === 1 ? 's' : ''} as the rewrite.`;
        return textResult([...leftOut, text, ...lossLines(proposal)].join('\n'), { ...empty, untouched: proposal.untouched });
      }
      const edit = store.stage({
        pattern: params.pattern ?? summary.pattern.source,
        rewrite: params.rewrite,
        files: proposal.files,
        replacements: proposal.replacements,
      });
      const diff = proposal.files.map((f) => unifiedDiff(f.file, f.original, f.updated)).join('\n');
      const diffLines = diff.split('\n');
      const cut = diffLines.length > MAX_DIFF_LINES;
      const ranges = changedRanges(diff);
      const perFile = proposal.files.map((f) => `${f.file} (${f.replacements})`);
      const lines = [
        ...leftOut,
        ...readingFirst(summary),
        `(proposed${cut ? `; diff preview cut at ${MAX_DIFF_LINES} of ${diffLines.length} lines` : ''}) ${plural(proposal.replacements, 'replacement')} in ${plural(proposal.files.length, 'file')}: ${list(perFile)}. Nothing is written yet: call resolve with edit_id "${edit.id}" and action "accept" to apply it, "discard" to drop it, or "show" (with offset and file) to read the staged diff${cut ? `; the rest starts at offset ${MAX_DIFF_LINES}` : ''}.`,
      ];
      // Everything the rewrite loses or could not make safe comes first, never only in the cut part of the diff.
      lines.push(...lossLines(proposal));
      if (proposal.keptTails > 0) {
        lines.push(
          `Kept: ${plural(proposal.keptTails, 'match')} ${proposal.keptTails === 1 ? 'has' : 'have'} code after what the pattern names (an else, another handler, a ";"): only the named part is replaced, the rest stays as it is.`,
        );
      }
      if (proposal.parenthesized.length > 0) {
        const where = proposal.parenthesized.slice(0, MAX_NAMED).map((p) => `${p.file}:${p.line} (${p.parts.join(', ')})`);
        lines.push(
          `Parenthesized: ${plural(proposal.parenthesized.length, 'replacement')} got parentheses so ${proposal.parenthesized.length === 1 ? 'it binds' : 'they bind'} as the template says next to a neighbouring operator (checked by re-parsing): ${where.join(', ')}${proposal.parenthesized.length > MAX_NAMED ? ` and ${proposal.parenthesized.length - MAX_NAMED} more` : ''}.`,
        );
      }
      if (proposal.innerLeft > 0) {
        lines.push(
          `${plural(proposal.innerLeft, 'match')} nested inside a replaced match ${proposal.innerLeft === 1 ? 'was' : 'were'} left as ${proposal.innerLeft === 1 ? 'it is' : 'they are'} (the outermost match wins); run ast_edit again after accepting to rewrite ${proposal.innerLeft === 1 ? 'it' : 'them'}.`,
        );
      }
      for (const b of proposal.breaks) {
        const where = b.lines.slice(0, 5).join(', ') + (b.lines.length > 5 ? ` and ${b.lines.length - 5} more` : '');
        lines.push(
          `Warning: after this rewrite ${b.file} has ${plural(b.lines.length, 'syntax error')} (${b.before} before), at ${nounFor(b.lines.length, 'line')} ${where}. Check the rewrite before accepting.`,
        );
      }
      lines.push(...caveats(summary));
      if (cut) {
        lines.push('', 'Every change (original line numbers):', ...ranges.map((r) => `  ${shownRanges(r)}`));
      }
      lines.push('', ...diffLines.slice(0, MAX_DIFF_LINES).map(shownDiffLine));
      if (cut) {
        lines.push(
          `… diff preview cut: ${diffLines.length - MAX_DIFF_LINES} more lines not shown; call resolve with edit_id "${edit.id}", action "show" and offset ${MAX_DIFF_LINES} (or a file) to read them.`,
        );
      }
      const structured: AstEditResult = {
        editId: edit.id,
        replacements: proposal.replacements,
        files: proposal.files.map((f) => ({ file: f.file, replacements: f.replacements })),
        innerMatchesLeft: proposal.innerLeft,
        breaksSyntax: proposal.breaks.map((b) => ({ file: b.file, line: b.lines[0] ?? 1, lines: b.lines, before: b.before })),
        droppedComments: proposal.droppedComments,
        untouched: proposal.untouched,
        keptTails: proposal.keptTails,
        parenthesized: proposal.parenthesized,
        unsafe: proposal.unsafe,
        changedLines: ranges,
        diffLines: diffLines.length,
        diff,
      };
      return textResult(lines.join('\n'), structured);
    },
  });
}

/**
 * Each match with its transformed metavariables as captures: the text computed from the source capture, placed
 * where that capture is (so its indentation and comments are judged as the source's).
 * @internal
 */
export function withTransforms(results: readonly FileMatches[], transform: Parameters<typeof applyTransforms>[0]): FileMatches[] {
  return results.map((result) => ({
    ...result,
    matches: result.matches.map((match) => {
      const texts = Object.fromEntries(Object.entries(match.captures).map(([name, c]) => [name, c.text]));
      const computed = applyTransforms(transform, texts);
      const captures = { ...match.captures };
      for (const [name, text] of Object.entries(computed)) {
        const [, t] = transform.find(([n]) => n === name) ?? [];
        const at = (t && (captures[t.source] ?? match.captures[t.source])) ?? undefined;
        const place = at ?? { start: match.start, end: match.start, startRow: match.startRow, startColumn: match.startColumn, endRow: match.startRow, endColumn: match.startColumn };
        captures[name] = { text, start: place.start, end: place.end, startRow: place.startRow, startColumn: place.startColumn, endRow: place.endRow, endColumn: place.endColumn };
      }
      return { ...match, captures };
    }),
  }));
}
