import { type Diagnostic, errorResult, type ToolProgress, type ToolResult } from '@agent-tools/core';
import { nounFor, plural } from '@agent-tools/core/internal';
import { countText, renderDiagnostics } from '../../format/diagnostics.js';
import { LineReader } from '../../format/line-reader.js';
import { callWith } from '../../format/paging.js';
import { checkProject } from '../../project-check/project-check.js';
import type { LspParams } from '../lsp-parameters.js';
import { pageData } from '../page-data.js';
import { pathFilter } from '../path-filter.js';
import { ok, resolveFile, type ToolEnv } from '../shared.js';
import { mergedFindings } from './file-diagnostics.js';

const FILE_CAP = 100;
const PROJECT_CAP = 100;
const SHOWN = new Set(['error', 'warning']);

/** diagnostics: a file's errors and warnings now, or with "*" a whole-project check. */
export async function diagnostics(
  env: ToolEnv,
  params: LspParams,
  signal: AbortSignal,
  report?: (progress: ToolProgress) => void,
  onBug?: (error: unknown) => void,
): Promise<ToolResult> {
  if (params.file?.trim() === '*') return project(env, params, signal, report, onBug);
  const { path, file } = resolveFile(env, params.file, 'diagnostics');
  const merged = await mergedFindings(env, path, signal);
  const list = merged.diagnostics;
  const relevant = list.filter((d) => SHOWN.has(d.severity));
  const hidden = list.length - relevant.length;
  const tail = hidden > 0 ? `\n(${plural(hidden, 'hint')} and information ${nounFor(hidden, 'message')} not shown)` : '';
  const ignoring = merged.ignoredBy.length ? `; not by ${merged.ignoredBy.join(' or ')}: ${merged.ignoredBy.length === 1 ? 'its configuration ignores' : 'their configurations ignore'} this file` : '';
  const by = `${merged.checkedBy.join(', ') || 'no server'}${ignoring}`;
  // A server that could not check the file comes first: without it the list is not the whole answer.
  const lead = merged.problems.length ? `INCOMPLETE: ${merged.problems.join('\n')}\n` : '';
  const problems = merged.problems.length ? { problems: merged.problems } : {};
  if (relevant.length === 0) {
    return ok(`${lead}No errors or warnings in ${file} (checked by ${by}).${tail}`, {
      action: 'diagnostics',
      file,
      total: 0,
      ...problems,
      ...(merged.ignoredBy.length ? { ignoredBy: merged.ignoredBy } : {}),
      diagnostics: [],
    });
  }
  const reader = new LineReader(env.cwd, (p) => merged.servers[0]?.documents.get(p)?.text);
  const rendered = renderDiagnostics(relevant, { cwd: env.cwd, reader, max: FILE_CAP, offset: params.offset ?? 0, nextCall: (offset) => callWith(params, offset) });
  return ok(`${lead}${file}: ${countText(relevant)} (checked by ${by}).\n${rendered.text}${tail}`, {
    action: 'diagnostics',
    file,
    total: relevant.length,
    ...problems,
    ...(merged.ignoredBy.length ? { ignoredBy: merged.ignoredBy } : {}),
    ...pageData(rendered, undefined),
    diagnostics: rendered.data,
  });
}

async function project(
  env: ToolEnv,
  params: LspParams,
  signal: AbortSignal,
  report?: (progress: ToolProgress) => void,
  onBug?: (error: unknown) => void,
): Promise<ToolResult> {
  const filter = pathFilter(env.cwd, params.path);
  const parts = await checkProject(env.supervisor, signal, report, onBug);
  if (parts.length === 0) {
    return errorResult(
      'Nothing was checked: no project root of any configured language server was found in the working directory. The project is NOT VERIFIED. Call lsp with action "status" to see what each server looks for.',
      { action: 'diagnostics', file: '*', verified: false, parts: [] },
    );
  }
  const found: Diagnostic[] = parts.flatMap((p) => p.diagnostics.filter((d) => SHOWN.has(d.severity)));
  const all = filter ? found.filter((d) => filter.matches(d.file)) : found;
  const lines = [`Whole-project check of the working directory (${plural(parts.length, 'project')}):`];
  for (const part of parts) {
    const shown = part.diagnostics.filter((d) => SHOWN.has(d.severity));
    const where = `${part.languages} at ${part.root}`;
    if (part.verified) lines.push(`  verified: ${where} by ${part.method}: ${countText(shown)}`);
    else lines.push(`  NOT VERIFIED: ${where}${part.method === 'none' ? '' : ` by ${part.method}`}: ${part.reason}${shown.length ? ` (${countText(shown)} found before that)` : ''}`);
    if (part.note) lines.push(`    (${part.note})`);
  }
  const unverified = parts.filter((p) => !p.verified).length;
  if (unverified > 0) lines.push(`${unverified} of ${parts.length} part(s) could not be verified: do not treat them as clean.`);
  const reader = new LineReader(env.cwd);
  const rendered = renderDiagnostics(all, { cwd: env.cwd, reader, max: PROJECT_CAP, offset: params.offset ?? 0, nextCall: (offset) => callWith(params, offset) });
  if (filter) lines.push(`In ${filter.label}: ${countText(all)} (of ${countText(found)} in all).`);
  if (all.length > 0) lines.push(rendered.text);
  const structured = {
    action: 'diagnostics',
    file: '*',
    verified: unverified === 0,
    parts: parts.map(({ diagnostics: list, ...rest }) => ({ ...rest, errors: list.filter((d) => d.severity === 'error').length, warnings: list.filter((d) => d.severity === 'warning').length })),
    total: all.length,
    ...pageData(rendered, filter),
    diagnostics: rendered.data,
  };
  // Nothing verified at all is an error: the model must not read the answer as a clean bill.
  return unverified === parts.length ? errorResult(lines.join('\n'), structured) : ok(lines.join('\n'), structured);
}
