import { defineTool, errorResult, type ToolResult } from '@agent-tools/core';
import { plural } from '@agent-tools/core/internal';
import { PrepareRenameRequest, RenameRequest, type WorkspaceEdit } from 'vscode-languageserver-protocol';
import { z } from 'zod';
import { invalidName, unrenamable } from '../edits/new-name.js';
import { syntaxErrorAdded } from '../edits/syntax-check.js';
import { verifyRenameEdits } from '../edits/verify-rename.js';
import { planWorkspaceEdit } from '../edits/workspace-edit.js';
import { LspError } from '../errors.js';
import { familyOf } from '../position/code-mask.js';
import { displayPath, fromUri } from '../util/paths.js';
import { splitLines } from '../util/text.js';
import { applyAndReport } from './apply-plan.js';
import { occurrenceParameter } from './lsp-parameters.js';
import { declinedRename, translateRefusal } from './server-errors.js';
import { askWhenComplete, failure, openTarget, type ToolEnv, withNotes } from './shared.js';

/** Parameters of `lsp_rename`. */
export const lspRenameParameters = z.object({
  file: z.string().describe('Path of a file where the symbol appears, relative to the working directory.'),
  line: z.number().int().min(1).describe('1-based line on which the symbol appears.'),
  symbol: z.string().describe('The current name, exactly as written on that line. Never a column.'),
  occurrence: occurrenceParameter,
  new_name: z.string().min(1).describe('The new name: an identifier of the language (for a #private field, with or without the #).'),
});

const DESCRIPTION = `Rename a symbol everywhere it is used, with the language server's understanding of scopes and imports (not a text replace).

Address the symbol by "file", "line" (1-based) and "symbol" (its current name as written on that line), never by column; add "occurrence" (1 = leftmost) when the name occurs more than once on the line. "new_name" is the new name.

The rename is applied to every file at once or not at all: if any file changed since the server read it, or a write fails, nothing is changed. The answer lists the files and edit counts, and any new compiler errors the rename introduced.`;

/** The `lsp_rename` tool (write tier): a server-computed rename, applied all or nothing. */
export function lspRenameTool(env: ToolEnv) {
  return defineTool({
    name: 'lsp_rename',
    tier: 'write',
    description: DESCRIPTION,
    parameters: lspRenameParameters,
    parallelSafe: false,
    timeoutMs: 120_000,
    async execute(params, ctx): Promise<ToolResult> {
      try {
        return withNotes(env, await rename(env, params, ctx));
      } catch (error) {
        return withNotes(env, failure(error, { action: 'rename' }));
      }
    },
  });
}

async function rename(
  env: ToolEnv,
  params: z.output<typeof lspRenameParameters>,
  ctx: Parameters<ReturnType<typeof lspRenameTool>['execute']>[1],
): Promise<ToolResult> {
  const target = await openTarget(env, params, 'lsp_rename', ctx.signal);
  const { server, doc, position, at } = target;
  // A rename changes every file: never of a longer name than the one given.
  if (position.within !== undefined) {
    return errorResult(
      `"${params.symbol.trim()}" is only part of \`${position.within}\` on line ${position.line + 1} of ${target.file}; nothing was changed. To rename \`${position.within}\`, pass it whole as "symbol"; otherwise check the line number${position.wholeOn?.length ? ` (it is a whole name on line${position.wholeOn.length > 1 ? 's' : ''} ${position.wholeOn.join(', ')})` : ''}.`,
      { action: 'rename', error: 'partial_symbol' },
    );
  }
  const family = familyOf(target.file);
  // A JavaScript private name (`#count`) is renamed as a whole: the server writes the `#` of the new name too.
  const privateName = family === 'js' && position.lineText[position.character - 1] === '#';
  const oldName = privateName ? `#${target.symbol}` : target.symbol;
  const given = params.new_name.trim();
  const newName = privateName && !given.startsWith('#') ? `#${given}` : given;
  const where = `\`${oldName}\` (${target.file}:${position.line + 1})`;
  const fixed = unrenamable(oldName, family);
  if (fixed) return errorResult(`${where} cannot be renamed: ${fixed}. Nothing was changed.`, { action: 'rename', error: 'invalid_name' });
  const invalid = invalidName(newName, family, privateName);
  if (invalid) return errorResult(`"${params.new_name}" cannot be the new name of ${where}: ${invalid}. Nothing was changed.`, { action: 'rename', error: 'invalid_name' });
  const provider = server.capabilities.renameProvider;
  if (!provider) throw new LspError('unsupported', `${server.config.name} cannot rename symbols; nothing was changed.`);
  // A rename computed on a partial index edits some files and misses others: never apply one.
  const request = { textDocument: { uri: doc.uri }, position: at };
  const context = { server, cwd: env.cwd, symbol: oldName, where: `${target.file}:${position.line + 1}`, newName };
  const { answer, completeness } = await askWhenComplete(
    env,
    server,
    ctx.signal,
    () => server.request(RenameRequest.type, { ...request, newName }, { signal: ctx.signal }),
    (progress) => ctx.reportProgress(progress),
  ).catch(async (error: unknown) => {
    throw await translateRefusal(error, context);
  });
  if (!completeness.complete) {
    return errorResult(
      `${completeness.reason}; a rename computed now could miss files, so nothing was changed. Call lsp_rename again in a moment.`,
      { action: 'rename', error: 'incomplete_index' },
    );
  }
  if (typeof provider === 'object' && provider.prepareProvider) {
    const prepared = await server.request(PrepareRenameRequest.type, request, { signal: ctx.signal }).catch(async (error: unknown) => {
      throw await translateRefusal(error, context);
    });
    if (prepared === null) return errorResult(await declinedRename(server, doc.uri, at, where, env.cwd), { action: 'rename', error: 'declined' });
    const raw = 'range' in prepared ? prepared.range : 'start' in prepared ? prepared : undefined;
    const range = raw ? server.positions.range(doc.path, raw) : undefined;
    if (range && !covers(range, position)) {
      const other = textOf(doc.text, range);
      return errorResult(
        `At ${where} the server would rename \`${other}\` (line ${range.start.line + 1}) instead; nothing was changed. Address the symbol you mean to rename by its own name.`,
      );
    }
  }
  if (!answer || (!answer.changes && !answer.documentChanges)) {
    return errorResult(`The server returned no edit for renaming ${where}; nothing was changed.`);
  }
  const edit = server.positions.workspaceEdit(answer);
  if (!editsPosition(edit, doc.uri, position)) {
    return errorResult(`The server's rename of ${where} does not change that position; nothing was changed. Address the symbol you mean to rename by its own name.`);
  }
  const check = verifyRenameEdits(edit, oldName, newName, env.cwd, (path) => server.documents.get(path)?.text);
  if (!check.ok) {
    const why = check.alias
      ? `${server.config.name} would only add an alias instead of renaming the symbol (${check.reason})`
      : `${check.reason}, which is not the old name; the server's positions do not match the file`;
    return errorResult(`Renaming ${where} to \`${newName}\` was refused: ${why}. Nothing was changed.`, { action: 'rename', error: 'edit_mismatch' });
  }
  const plan = planWorkspaceEdit(edit, env.cwd, (path) => server.documents.get(path));
  if (plan.changes.length === 0) {
    return errorResult(`Renaming ${where} to \`${newName}\` changes nothing; nothing was written.`);
  }
  // A reserved word is a valid property name and an invalid variable name: the parser tells which this is.
  for (const change of plan.changes) {
    const broken = change.before !== undefined && change.after !== undefined ? syntaxErrorAdded(change.path, change.before, change.after) : undefined;
    if (broken) {
      return errorResult(`Renaming ${where} to \`${newName}\` was refused: ${displayPath(change.path, env.cwd)} would no longer parse (${broken}). Nothing was changed.`, { action: 'rename', error: 'invalid_name' });
    }
  }
  const edits = plan.changes.reduce((sum, c) => sum + c.edits, 0);
  const head = `Renamed ${where} to \`${newName}\`: ${plural(edits, 'edit')} in ${plural(plan.changes.length, 'file')}.`;
  return applyAndReport(server, plan, env.cwd, ctx, head, { action: 'rename', from: oldName, to: newName, edits }, { from: oldName, to: newName });
}

type Range = { readonly start: { line: number; character: number }; readonly end: { line: number; character: number } };

/** Whether a range contains the symbol's position. */
function covers(range: Range, position: { line: number; character: number }): boolean {
  const after = (a: { line: number; character: number }, b: { line: number; character: number }) => a.line > b.line || (a.line === b.line && a.character >= b.character);
  return after(position, range.start) && after(range.end, position);
}

function textOf(text: string, range: Range): string {
  const lines = splitLines(text);
  if (range.start.line !== range.end.line) return (lines[range.start.line] ?? '').slice(range.start.character);
  return (lines[range.start.line] ?? '').slice(range.start.character, range.end.character);
}

/** Whether the edit changes the addressed position (a guard for servers without prepareRename). */
function editsPosition(edit: WorkspaceEdit, uri: string, position: { line: number; character: number }): boolean {
  const target = fromUri(uri);
  const ranges: Range[] = [];
  if (edit.changes) {
    for (const [key, edits] of Object.entries(edit.changes)) if (fromUri(key) === target) ranges.push(...edits.map((e) => e.range));
  }
  for (const change of edit.documentChanges ?? []) {
    if ('textDocument' in change && fromUri(change.textDocument.uri) === target) ranges.push(...change.edits.map((e) => e.range));
  }
  return ranges.some((range) => covers(range, position));
}
