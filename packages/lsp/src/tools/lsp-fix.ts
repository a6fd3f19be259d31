import { defineTool, errorDetail, errorResult, type ToolContext, type ToolResult } from '@agent-tools/core';
import { plural } from '@agent-tools/core/internal';
import {
  type ApplyWorkspaceEditResult,
  type CodeAction,
  CodeActionResolveRequest,
  type Command,
  ExecuteCommandRequest,
  type WorkspaceEdit,
} from 'vscode-languageserver-protocol';
import { z } from 'zod';
import { editedPaths } from '../edits/edit-files.js';
import { applyEditPlan, type EditPlan, type FileChange, planWorkspaceEdit } from '../edits/workspace-edit.js';
import { LspError } from '../errors.js';
import type { LanguageServer } from '../server/language-server.js';
import { displayPath, relativeText } from '../util/paths.js';
import { applyAndReport, reportApplied, syncServer } from './apply-plan.js';
import { maybeStale, openAll, readText } from './server-view.js';
import { failure, resolveFile, type ToolEnv, withNotes } from './shared.js';

/** Parameters of `lsp_fix`. */
export const lspFixParameters = z.object({
  file: z.string().describe('The file lsp code_actions was last asked about, relative to the working directory.'),
  number: z.number().int().min(1).describe('The number of the action in that code_actions answer (1 = first).'),
});

const DESCRIPTION = `Apply one of the code actions (quick fixes, refactorings) that lsp's code_actions action listed, by its number.

First call lsp with action "code_actions" (file, line, symbol); it numbers what the server offers. Then call lsp_fix with the same "file" and the "number" to apply. The change is applied to every file at once or not at all, and refused if the file changed since the list was made (ask for the list again then). The answer lists the files changed and any new compiler errors the change introduced.`;

/** The `lsp_fix` tool (write tier): applies a listed code action all or nothing. */
export function lspFixTool(env: ToolEnv) {
  return defineTool({
    name: 'lsp_fix',
    tier: 'write',
    description: DESCRIPTION,
    parameters: lspFixParameters,
    parallelSafe: false,
    timeoutMs: 120_000,
    async execute(params, ctx): Promise<ToolResult> {
      try {
        return withNotes(env, await applyFix(env, params, ctx));
      } catch (error) {
        return withNotes(env, failure(error, { action: 'fix' }));
      }
    },
  });
}

async function applyFix(env: ToolEnv, params: z.output<typeof lspFixParameters>, ctx: ToolContext): Promise<ToolResult> {
  const { path, file } = resolveFile(env, params.file, 'lsp_fix');
  const listing = env.listings.get(path);
  if (!listing) {
    return errorResult(`No code actions were listed for ${file} in this run. Call lsp with action "code_actions" (file, line, symbol) first, then lsp_fix with the number of the action.`);
  }
  const picked = listing.actions[params.number - 1];
  if (!picked) {
    return errorResult(`The last code_actions list for ${file} (line ${listing.line}, \`${listing.symbol}\`) has ${plural(listing.actions.length, 'action')}; there is no number ${params.number}.`);
  }
  if (readText(path) !== listing.texts.get(path)) {
    return errorResult(`${file} changed since its code actions were listed, so action ${params.number} may no longer fit; nothing was changed. Call lsp code_actions again and pick from the new list.`);
  }
  // The action's edits of other files were computed on them as they were then.
  const moved = editedPaths(isCodeAction(picked) ? picked.edit : undefined).filter((p) => readText(p) !== listing.texts.get(p));
  if (moved.length > 0) {
    const names = moved.map((p) => displayPath(p, env.cwd)).join(', ');
    return errorResult(`${names}, which action ${params.number} edits, changed since the code actions were listed, so its edit may no longer fit; nothing was changed. Call lsp code_actions again and pick from the new list.`);
  }
  // The action is applied by the server that offered it (ESLint runs its own fix command).
  const server = listing.servers?.[params.number - 1] ?? listing.server;
  if (server.state !== 'running') {
    return errorResult(`The server that listed these actions is no longer running; nothing was changed. Call lsp code_actions again.`);
  }
  let action: CodeAction | Command = picked;
  if (isCodeAction(action) && !action.edit && !action.command && server.capabilities.codeActionProvider && typeof server.capabilities.codeActionProvider === 'object' && server.capabilities.codeActionProvider.resolveProvider) {
    const unresolved = action;
    const resolve = () => server.request(CodeActionResolveRequest.type, unresolved, { signal: ctx.signal });
    action = await resolve();
    // Resolved on the server's copies of the files it edits: resolve again once the ones it may hold old copies of are open.
    const stale = maybeStale(server, editedPaths(action.edit));
    if (stale.length > 0) {
      openAll(server, stale);
      action = await resolve();
    }
  }
  const title = action.title;
  const edit = isCodeAction(action) ? action.edit : undefined;
  const command = isCodeAction(action) ? action.command : (action as Command);
  if (!edit && !command) return errorResult(`Action ${params.number} ("${title}") carries no change to apply; nothing was changed.`);

  const head = `Applied "${title}" (action ${params.number} at ${file}:${listing.line})`;
  if (edit && !command) {
    const plan = planEdit(server, edit, env.cwd);
    if (plan.changes.length === 0) return errorResult(`Action ${params.number} ("${title}") changes nothing; nothing was written.`);
    return applyAndReport(server, plan, env.cwd, ctx, `${head}: ${countOf(plan)}.`, { action: 'fix', number: params.number, title });
  }
  // ESLint's server handles one request at a time: asked for the file's diagnostics while its command waits for the
  // answer to its workspace/applyEdit, it answers only after that wait, so the baseline taken there ran out its
  // budget and no finding of the fix could be called new. The listed file's baseline is taken before the command.
  if (ctx.diagnostics.enabled) await ctx.diagnostics.beforeWrite([path], ctx.signal);
  const outcome = await runCommand(server, env.cwd, ctx, edit, command);
  if (outcome.declined) {
    return errorResult(`The server ran "${title}" but an edit it sent back could not be applied (${relativeText(outcome.declined, env.cwd)}); ${outcome.restored}. Call lsp code_actions again.`);
  }
  if (outcome.applied.length === 0) {
    return errorResult(`The server ran "${title}" (command ${command?.command}) but sent no change to apply; nothing was changed.`);
  }
  const plan = { changes: outcome.applied };
  return reportApplied(plan, env.cwd, ctx, `${head}: ${countOf(plan)}.`, { action: 'fix', number: params.number, title });
}

/** What running a command of the server did: the changes applied, or why one of its edits was declined. */
interface CommandOutcome {
  readonly applied: readonly FileChange[];
  /** Why an edit was declined; the changes applied before it were undone. */
  readonly declined?: string;
  /** Whether the undoing worked: `nothing was changed`, or what could not be restored. */
  readonly restored?: string;
}

/**
 * Runs a code action's command: the server sends its edits back through workspace/applyEdit, and each goes through
 * the same all-or-nothing path, only while this command runs. An edit of a file the server may hold an older copy
 * of is declined, the file opened with its current content, and the command run once more. When an edit is
 * declined after others were applied, those are undone, so the command changes everything or nothing.
 */
async function runCommand(server: LanguageServer, cwd: string, ctx: ToolContext, edit: WorkspaceEdit | undefined, command: Command | undefined): Promise<CommandOutcome> {
  for (let attempt = 1; ; attempt++) {
    const startedAt = Date.now();
    const applied: FileChange[] = [];
    let declined: string | undefined;
    let retry = false;
    const accept = async (edits: WorkspaceEdit): Promise<ApplyWorkspaceEditResult> => {
      if (declined) return { applied: false, failureReason: `an earlier edit of this command was declined: ${declined}` };
      try {
        const stale = attempt === 1 ? maybeStale(server, editedPaths(edits), startedAt) : [];
        if (stale.length > 0) {
          openAll(server, stale);
          retry = true;
          throw new LspError('edit_failed', `${stale.map((p) => displayPath(p, cwd)).join(', ')} changed on disk since the server read it`);
        }
        const plan = planEdit(server, edits, cwd);
        if (ctx.diagnostics.enabled) await ctx.diagnostics.beforeWrite(plan.changes.map((c) => c.path), ctx.signal);
        await applyEditPlan(plan, cwd, {}, '');
        syncServer(server, plan);
        applied.push(...plan.changes);
        return { applied: true };
      } catch (error) {
        // Declined either way, so what was applied is undone; anything but an LspError is also a bug to tell.
        ctx.reportError(error);
        declined = errorDetail(error);
        return { applied: false, failureReason: declined };
      }
    };
    let failure: unknown;
    try {
      await server.acceptingEdits(
        (request) => accept(request.edit),
        async () => {
          if (edit) {
            const first = await accept(edit);
            if (!first.applied) return;
          }
          if (command) {
            await server.request(ExecuteCommandRequest.type, { command: command.command, ...(command.arguments ? { arguments: command.arguments } : {}) }, { signal: ctx.signal });
          }
        },
      );
    } catch (error) {
      failure = error;
    }
    if (retry && attempt === 1) {
      const restored = await undo(server, applied, cwd, ctx);
      if (restored.ok) continue;
      return { applied: [], declined: declined ?? 'a file changed on disk since the server read it', restored: restored.text };
    }
    if (declined === undefined && failure !== undefined && applied.length === 0) throw failure;
    if (declined === undefined) return { applied };
    return { applied: [], declined, restored: (await undo(server, applied, cwd, ctx)).text };
  }
}

/** Restores the files a command had changed before one of its edits was declined. */
async function undo(server: LanguageServer, applied: readonly FileChange[], cwd: string, ctx: ToolContext): Promise<{ ok: boolean; text: string }> {
  if (applied.length === 0) return { ok: true, text: 'nothing was changed' };
  // One change per file: from what it is now back to what it was before the first edit.
  const files = new Map<string, { original: string | undefined; now: string | undefined }>();
  for (const c of applied) files.set(c.path, { original: files.has(c.path) ? files.get(c.path)?.original : c.before, now: c.after });
  const reverse = [...files].map(([path, f]) => ({ path, before: f.now, after: f.original, edits: 1 }));
  try {
    await applyEditPlan({ changes: reverse }, cwd, {}, '');
    syncServer(server, { changes: reverse });
    return { ok: true, text: `the ${plural(files.size, 'file')} it had already changed ${files.size === 1 ? 'was' : 'were'} restored, so nothing was changed` };
  } catch (error) {
    // applyEditPlan says why the disk could not be restored as edit_failed (an LspError), which is only told; anything
    // else is a bug, reported too, and the answer still says the files may not be restored (propagating would hide it).
    ctx.reportError(error);
    return { ok: false, text: `restoring what it had already changed failed: ${errorDetail(error)}` };
  }
}

/** A server's edit in LSP positions, checked (inside the working directory, versions, read-only files). */
function planEdit(server: LanguageServer, edit: WorkspaceEdit, cwd: string): EditPlan {
  return planWorkspaceEdit(server.positions.workspaceEdit(edit), cwd, (path) => server.documents.get(path), '');
}

function countOf(plan: EditPlan): string {
  const edits = plan.changes.reduce((sum, c) => sum + c.edits, 0);
  return `${plural(edits, 'edit')} in ${plural(new Set(plan.changes.map((c) => c.path)).size, 'file')}`;
}

function isCodeAction(item: CodeAction | Command): item is CodeAction {
  return typeof (item as Command).command !== 'string';
}
