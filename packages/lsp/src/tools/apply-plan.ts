import type { ToolContext, ToolResult } from '@agent-tools/core';
import { appendText } from '@agent-tools/core';
import { plural } from '@agent-tools/core/internal';
import { FileChangeType } from 'vscode-languageserver-protocol';
import { applyEditPlan, type EditPlan } from '../edits/workspace-edit.js';
import type { LanguageServer } from '../server/language-server.js';
import { displayPath, toUri } from '../util/paths.js';

/**
 * Applies a checked edit plan all or nothing, tells the server what changed, and answers with the files, their
 * edit counts and the diagnostics the change introduced (through the run's diagnostics hook, as a write of the
 * harness's own tools would). Every path in the answer, text and `structured`, is workspace-relative.
 */
export async function applyAndReport(
  server: LanguageServer,
  plan: EditPlan,
  cwd: string,
  ctx: ToolContext,
  head: string,
  structured: Record<string, unknown>,
  rename?: { readonly from: string; readonly to: string },
): Promise<ToolResult> {
  if (ctx.diagnostics.enabled) {
    await ctx.diagnostics.beforeWrite(plan.changes.map((c) => c.path), ctx.signal);
    // Old messages that name the symbol now name it by its new name: compared under the old text they read as new.
    if (rename) ctx.diagnostics.renamed(rename.from, rename.to, plan.changes.map((c) => c.path));
  }
  await applyEditPlan(plan, cwd);
  syncServer(server, plan);
  return reportApplied(plan, cwd, ctx, head, structured);
}

/** The answer for changes already applied: files with edit counts, then what the diagnostics hook found. */
export async function reportApplied(
  plan: EditPlan,
  cwd: string,
  ctx: ToolContext,
  head: string,
  structured: Record<string, unknown>,
): Promise<ToolResult> {
  // Several edits a server sent back for one command may touch a file more than once.
  const merged = new Map<string, { before: string | undefined; after: string | undefined; edits: number }>();
  for (const c of plan.changes) {
    const seen = merged.get(c.path);
    merged.set(c.path, seen ? { before: seen.before, after: c.after, edits: seen.edits + c.edits } : { before: c.before, after: c.after, edits: c.edits });
  }
  const lines = [head];
  const changed = [...merged].map(([path, c]) => {
    const file = displayPath(path, cwd);
    const what = c.before === undefined ? 'created' : c.after === undefined ? 'deleted' : plural(c.edits, 'edit');
    lines.push(`  ${file} (${what})`);
    return { file, edits: c.edits, ...(c.before === undefined ? { created: true } : {}), ...(c.after === undefined ? { deleted: true } : {}) };
  });
  const result: ToolResult = { content: [{ type: 'text', text: lines.join('\n') }], isError: false, structured: { ...structured, files: changed } };
  if (!ctx.diagnostics.enabled) return result;
  const report = await ctx.diagnostics.afterWrite([...merged.keys()], ctx.signal);
  return report.text ? { ...appendText(result, report.text), structured: { ...(result.structured as object), diagnostics: report.files } } : result;
}

/** Tells the server what changed on disk: new versions of open documents, watched-file events for the rest. */
export function syncServer(server: LanguageServer, plan: EditPlan): void {
  const events: Array<{ uri: string; type: FileChangeType }> = [];
  for (const change of plan.changes) {
    if (server.documents.get(change.path)) {
      server.documents.sync(change.path);
      continue;
    }
    const type = change.before === undefined ? FileChangeType.Created : change.after === undefined ? FileChangeType.Deleted : FileChangeType.Changed;
    events.push({ uri: toUri(change.path), type });
  }
  if (events.length > 0) server.documents.watched(events);
}

