import { readFileSync } from 'node:fs';
import { defineTool, errorDetail, errorResult, type ToolContext, type ToolResult } from '@agent-tools/core';
import {
  type ApplyWorkspaceEditResult,
  type CodeAction,
  CodeActionResolveRequest,
  type Command,
  ExecuteCommandRequest,
  type WorkspaceEdit,
} from 'vscode-languageserver-protocol';
import { z } from 'zod';
import { applyEditPlan, type EditPlan, type FileChange, planWorkspaceEdit } from '../edits/workspace-edit.js';
import { LspError } from '../errors.js';
import type { LanguageServer } from '../server/language-server.js';
import { plural } from '../util/text.js';
import { applyAndReport, reportApplied, syncServer } from './apply-plan.js';
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
  if (readText(path) !== listing.text) {
    return errorResult(`${file} changed since its code actions were listed, so action ${params.number} may no longer fit; nothing was changed. Call lsp code_actions again and pick from the new list.`);
  }
  const { server } = listing;
  if (server.state !== 'running') {
    return errorResult(`The server that listed these actions is no longer running; nothing was changed. Call lsp code_actions again.`);
  }
  let action: CodeAction | Command = picked;
  if (isCodeAction(action) && !action.edit && !action.command && server.capabilities.codeActionProvider && typeof server.capabilities.codeActionProvider === 'object' && server.capabilities.codeActionProvider.resolveProvider) {
    action = await server.request(CodeActionResolveRequest.type, action, { signal: ctx.signal });
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
  // A command runs on the server, which sends its edits back through workspace/applyEdit: each goes through the
  // same all-or-nothing path, and only while this command runs.
  const applied: FileChange[] = [];
  const accept = async (edits: WorkspaceEdit): Promise<ApplyWorkspaceEditResult> => {
    try {
      const plan = planEdit(server, edits, env.cwd);
      if (ctx.diagnostics.enabled) await ctx.diagnostics.beforeWrite(plan.changes.map((c) => c.path), ctx.signal);
      await applyEditPlan(plan, env.cwd);
      syncServer(server, plan);
      applied.push(...plan.changes);
      return { applied: true };
    } catch (error) {
      return { applied: false, failureReason: errorDetail(error) };
    }
  };
  await server.acceptingEdits(
    (request) => accept(request.edit),
    async () => {
      if (edit) {
        const first = await accept(edit);
        if (!first.applied) throw new LspError('edit_failed', first.failureReason ?? 'the edit could not be applied');
      }
      if (command) {
        await server.request(ExecuteCommandRequest.type, { command: command.command, ...(command.arguments ? { arguments: command.arguments } : {}) }, { signal: ctx.signal });
      }
    },
  );
  if (applied.length === 0) {
    return errorResult(`The server ran "${title}" (command ${command?.command}) but sent no change to apply; nothing was changed.`);
  }
  const plan = { changes: applied };
  return reportApplied(plan, env.cwd, ctx, `${head}: ${countOf(plan)}.`, { action: 'fix', number: params.number, title });
}

/** A server's edit in LSP positions, checked (inside the working directory, versions, read-only files). */
function planEdit(server: LanguageServer, edit: WorkspaceEdit, cwd: string): EditPlan {
  return planWorkspaceEdit(server.positions.workspaceEdit(edit), cwd, (path) => server.documents.get(path));
}

function countOf(plan: EditPlan): string {
  const edits = plan.changes.reduce((sum, c) => sum + c.edits, 0);
  return `${plural(edits, 'edit')} in ${plural(new Set(plan.changes.map((c) => c.path)).size, 'file')}`;
}

function isCodeAction(item: CodeAction | Command): item is CodeAction {
  return typeof (item as Command).command !== 'string';
}

function readText(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
}
