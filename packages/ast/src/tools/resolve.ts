import { appendText, defineTool, errorResult, textResult } from '@agent-tools/core';
import { plural } from '@agent-tools/core/internal';
import { z } from 'zod';
import { list } from '../format/search-report.js';
import { shownDiffLine, unifiedDiff } from '../rewrite/diff.js';
import { changedRanges, shownRanges } from '../rewrite/ranges.js';
import { applyStaged } from '../staging/apply.js';
import type { EditStore, StagedEdit } from '../staging/edit-store.js';

/** Parameters of `resolve`. */
export const resolveParameters = z.object({
  edit_id: z.string().min(1).describe('The id an ast_edit result gave, e.g. "edit_1".'),
  action: z
    .enum(['accept', 'discard', 'show'])
    .describe('"accept" writes the staged edit (every file or none); "discard" drops it; "show" returns its diff, a page at a time (offset, file), and writes nothing.'),
  offset: z.number().int().min(0).optional().describe('"show" only: diff lines to skip first (default 0); the answer names the offset of the next page.'),
  file: z.string().optional().describe('"show" only: only this file\'s diff (a path as the edit names it).'),
});

/** The `structured` part of a `resolve` result. */
export interface ResolveResult {
  readonly editId: string;
  readonly state: StagedEdit['state'] | 'unknown';
  readonly files?: readonly string[];
  readonly changed?: readonly string[];
  readonly diagnostics?: unknown;
  /** "show": the page of the diff, its first line's offset, the diff's length, and the next page's offset. */
  readonly diff?: string;
  readonly offset?: number;
  readonly totalLines?: number;
  readonly nextOffset?: number;
}

/** Diff lines one "show" returns. */
const SHOW_LINES = 300;

const DESCRIPTION = [
  'Accept or discard an edit staged by ast_edit, by its edit_id.',
  'accept writes it all-or-nothing: every file must still be exactly as it was when the edit was staged; if any changed, nothing is written and the changed files are named (run ast_edit again on the current code). New diagnostics of the written files are appended when a language server watches them.',
  'discard drops it without writing. An id can be resolved once; using it again says what happened to it.',
  `show returns the staged diff ${SHOW_LINES} lines at a time (offset to page on, file to read one file's diff) and writes nothing: review the whole change before accepting it.`,
].join(' ');

/** Creates `resolve` over the run's staged edits. */
export function createResolveTool(store: EditStore, cwd: string) {
  return defineTool({
    name: 'resolve',
    tier: 'write',
    description: DESCRIPTION,
    parameters: resolveParameters,
    // Accepting compares and writes files; two accepts at once must not interleave.
    parallelSafe: false,
    async execute(params, ctx) {
      const id = params.edit_id.trim();
      const edit = store.get(id);
      if (!edit) {
        const waiting = store.pending();
        const structured: ResolveResult = { editId: id, state: 'unknown' };
        return errorResult(
          `There is no staged edit "${id}" in this run. ${waiting.length ? `Edits waiting: ${waiting.join(', ')}.` : 'No edit is waiting; call ast_edit to stage one.'}`,
          structured,
        );
      }
      if (params.action === 'show') return showEdit(edit, params.offset ?? 0, params.file);
      if (edit.state !== 'staged') return errorResult(alreadyText(edit), { editId: id, state: edit.state } satisfies ResolveResult);

      const files = edit.files.map((f) => f.file);
      if (params.action === 'discard') {
        edit.state = 'discarded';
        return textResult(`Discarded ${id}; nothing was written.`, { editId: id, state: edit.state, files } satisfies ResolveResult);
      }

      const absolute = edit.files.map((f) => f.absolute);
      if (ctx.diagnostics.enabled) await ctx.diagnostics.beforeWrite(absolute, ctx.signal);
      const outcome = await applyStaged(ctx.cwd ?? cwd, edit.files);
      if (!outcome.ok && outcome.kind === 'changed') {
        edit.state = 'rejected';
        edit.note = `${list(outcome.changed)} changed after it was staged`;
        return errorResult(
          `Rejected ${id}: ${plural(outcome.changed.length, 'file')} changed since the edit was staged (${list(outcome.changed)}). Nothing was written. Run ast_edit again to propose the edit on the current code.`,
          { editId: id, state: edit.state, files, changed: outcome.changed } satisfies ResolveResult,
        );
      }
      if (!outcome.ok) {
        return errorResult(
          `Writing ${id} failed (${outcome.reason}); ${outcome.restored.length ? `the files already replaced were restored (${list(outcome.restored)}), so ` : ''}nothing changed. The edit is still staged: fix the cause and accept again, or discard it.`,
          { editId: id, state: edit.state, files } satisfies ResolveResult,
        );
      }
      edit.state = 'accepted';
      const text = `Applied ${id}: ${plural(edit.replacements, 'replacement')} in ${plural(files.length, 'file')} (${list(files)}).`;
      const report = await ctx.diagnostics.afterWrite(absolute, ctx.signal);
      const result = textResult(text, {
        editId: id,
        state: edit.state,
        files,
        ...(report.files.length ? { diagnostics: report.files } : {}),
      } satisfies ResolveResult);
      return appendText(result, report.text);
    },
  });
}

function alreadyText(edit: StagedEdit): string {
  switch (edit.state) {
    case 'accepted':
      return `${edit.id} was already accepted: ${plural(edit.replacements, 'replacement')} ${edit.replacements === 1 ? 'was' : 'were'} written then. Nothing to do.`;
    case 'discarded':
      return `${edit.id} was discarded earlier; nothing of it was written. Call ast_edit again to propose it anew.`;
    case 'rejected':
      return `${edit.id} was rejected (${edit.note ?? 'files changed'}); nothing of it was written. Call ast_edit again on the current code.`;
    case 'expired':
      return `${edit.id} expired (${edit.note ?? 'too many edits were staged after it'}); nothing of it was written. Call ast_edit again.`;
    default:
      return `${edit.id} is ${edit.state}.`;
  }
}

/** One page of a staged edit's diff (whatever its state: an accepted edit shows what was written). */
function showEdit(edit: StagedEdit, offset: number, file: string | undefined) {
  const wanted = file?.trim().replace(/^\.\//, '');
  const files = edit.files.filter((f) => !wanted || f.file === wanted);
  const base = { editId: edit.id, state: edit.state, files: edit.files.map((f) => f.file) };
  if (edit.files.length === 0) {
    return errorResult(`${edit.id} holds no diff any more (${edit.state}${edit.note ? `: ${edit.note}` : ''}). Call ast_edit again.`, base satisfies ResolveResult);
  }
  if (files.length === 0) {
    return errorResult(`${edit.id} does not change "${file}". Its files: ${list(edit.files.map((f) => f.file))}.`, base satisfies ResolveResult);
  }
  const diff = files.map((f) => unifiedDiff(f.file, f.original, f.updated)).join('\n');
  const all = diff.split('\n');
  const page = all.slice(offset, offset + SHOW_LINES);
  const next = offset + page.length < all.length ? offset + page.length : undefined;
  const scope = wanted ? ` of ${wanted}` : '';
  const head =
    page.length === 0
      ? `${edit.id} (${edit.state}): offset ${offset} is past the end of the diff${scope} (${all.length} lines).`
      : `${edit.id} (${edit.state}): diff${scope} lines ${offset + 1}-${offset + page.length} of ${all.length}${next !== undefined ? `; continue with offset ${next}` : '; the end'}.`;
  const lines = [head];
  if (offset === 0 && next !== undefined) {
    lines.push('Every change (original line numbers):', ...changedRanges(diff).map((r) => `  ${shownRanges(r)}`));
  }
  lines.push('', ...page.map(shownDiffLine));
  return textResult(lines.join('\n'), {
    ...base,
    diff: page.join('\n'),
    offset,
    totalLines: all.length,
    ...(next !== undefined ? { nextOffset: next } : {}),
  } satisfies ResolveResult);
}
