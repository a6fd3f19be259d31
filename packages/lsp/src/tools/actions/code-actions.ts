import type { ToolResult } from '@agent-tools/core';
import { capList } from '@agent-tools/core';
import {
  type CodeAction,
  CodeActionRequest,
  CodeActionTriggerKind,
  type Command,
  type Diagnostic as LspDiagnostic,
  type WorkspaceEdit,
} from 'vscode-languageserver-protocol';
import { fromLspDiagnostic } from '../../diagnostics/convert.js';
import { editedPaths, textEdits } from '../../edits/edit-files.js';
import { LineReader } from '../../format/line-reader.js';
import { displayPath, fromUri } from '../../util/paths.js';
import { textInRange } from '../../util/text.js';
import type { LspParams } from '../lsp-parameters.js';
import { maybeStale, openAll, snapshotTexts } from '../server-view.js';
import { ok, openTarget, requireCapability, type ToolEnv } from '../shared.js';

const MAX_ACTIONS = 20;
const MAX_EDITS_SHOWN = 4;

/** An offered action as programs receive it. */
export interface CodeActionData {
  readonly title: string;
  readonly kind?: string;
  readonly preferred?: boolean;
  /** Text edits per workspace-relative file. */
  readonly edits: ReadonlyArray<{ readonly file: string; readonly line: number; readonly column: number; readonly oldText: string; readonly newText: string }>;
  /** A server command the action runs instead of (or after) its edits; this tool does not run it. */
  readonly command?: string;
}

/**
 * code_actions: the quick fixes and refactorings the server offers at the symbol, given the diagnostics on its
 * line (servers compute quick fixes from them). Nothing is applied.
 */
export async function codeActions(env: ToolEnv, params: LspParams, signal: AbortSignal): Promise<ToolResult> {
  const target = await openTarget(env, params, 'code_actions', signal);
  const { server, doc, position, file, path, symbol } = target;
  requireCapability(server, 'codeActionProvider', 'code actions', 'Read the diagnostics and make the fix with your edit tool.');
  let lineDiagnostics: LspDiagnostic[] = [];
  try {
    const all = await server.diagnostics.of(doc, Date.now() + 10_000, signal);
    lineDiagnostics = all.filter((d) => d.range.start.line <= position.line && d.range.end.line >= position.line);
  } catch {
    // Without diagnostics the server still offers refactorings.
  }
  // The request speaks the server's positions; what the model reads is in LSP's.
  const toServer = (range: LspDiagnostic['range']) => ({ start: server.positions.toServer(path, range.start), end: server.positions.toServer(path, range.end) });
  const range = toServer({ start: { line: position.line, character: position.character }, end: { line: position.line, character: position.character + position.length } });
  const ask = () =>
    server.request(
      CodeActionRequest.type,
      {
        textDocument: { uri: doc.uri },
        range,
        context: { diagnostics: lineDiagnostics.map((d) => ({ ...d, range: toServer(d.range) })), triggerKind: CodeActionTriggerKind.Invoked },
      },
      { signal },
    );
  let answer = await ask();
  // An action's edit of another file is computed on the server's copy of it, which may be older than the disk:
  // such files are opened with their current content and the server asked again.
  const stale = maybeStale(server, editedBy(answer));
  if (stale.length > 0) {
    openAll(server, stale);
    answer = await ask();
  }
  const lineReader = new LineReader(env.cwd, (p) => server.documents.get(p)?.text);
  const listed = capList(answer ?? [], MAX_ACTIONS);
  const actions = listed.items.map((item) => toData(item, env.cwd, (p) => lineReader.lines(p), (edit) => server.positions.workspaceEdit(edit)));
  const texts = snapshotTexts(editedBy(listed.items));
  texts.set(path, doc.text);
  env.listings.remember(path, { server, line: position.line + 1, symbol, actions: listed.items, texts });
  const problems = lineDiagnostics.map((d) => {
    const diagnostic = fromLspDiagnostic(doc.path, d);
    return `${diagnostic.severity}${diagnostic.code === undefined ? '' : ` ${diagnostic.code}`}: ${diagnostic.message.split('\n')[0]}`;
  });
  const context = `${target.partialLine}${problems.length ? `Problems on line ${position.line + 1}: ${problems.join('; ')}\n` : ''}`;
  if (actions.length === 0) {
    return ok(`${context}The server offers no code actions at \`${params.symbol}\` (${file}:${position.line + 1}).`, { action: 'code_actions', total: 0, actions: [] });
  }
  const lines = [
    `${context}${listed.total} code action${listed.total === 1 ? '' : 's'} at \`${symbol}\` (${file}:${position.line + 1}); none is applied yet. Where you may change files, apply one with lsp_fix (file and its number) or make the change with your edit tool:`,
  ];
  for (const [index, action] of actions.entries()) {
    const tags = [action.kind, action.preferred ? 'preferred' : undefined].filter(Boolean).join(', ');
    lines.push(`${index + 1}. ${action.title}${tags ? ` [${tags}]` : ''}`);
    for (const edit of action.edits.slice(0, MAX_EDITS_SHOWN)) {
      const what = edit.oldText ? `replace ${JSON.stringify(edit.oldText)} with ${JSON.stringify(edit.newText)}` : `insert ${JSON.stringify(edit.newText)}`;
      lines.push(`   ${edit.file}:${edit.line}:${edit.column} ${what}`);
    }
    if (action.edits.length > MAX_EDITS_SHOWN) lines.push(`   (${action.edits.length - MAX_EDITS_SHOWN} more edits)`);
    if (action.command && action.edits.length === 0) lines.push(`   (the server makes this change itself when lsp_fix runs its command ${action.command})`);
  }
  if (listed.note) lines.push(`(${listed.note})`);
  return ok(lines.join('\n'), { action: 'code_actions', total: listed.total, actions: actions.map((a, i) => ({ number: i + 1, ...a })) });
}

function toData(
  item: Command | CodeAction,
  cwd: string,
  reader: (path: string) => string[] | undefined,
  map: (edit: WorkspaceEdit) => WorkspaceEdit,
): CodeActionData {
  if (typeof (item as Command).command === 'string' && !('edit' in item) && !('kind' in item)) {
    return { title: item.title, edits: [], command: (item as Command).command };
  }
  const action = item as CodeAction;
  return {
    title: action.title,
    ...(action.kind ? { kind: action.kind } : {}),
    ...(action.isPreferred ? { preferred: true } : {}),
    edits: action.edit ? editsOf(map(action.edit), cwd, reader) : [],
    ...(action.command ? { command: action.command.command } : {}),
  };
}

/** The files the edits of listed actions change (a command's edits are not known before it runs). */
function editedBy(items: ReadonlyArray<Command | CodeAction> | null | undefined): string[] {
  return [...new Set((items ?? []).flatMap((item) => editedPaths((item as CodeAction).edit)))];
}

function editsOf(edit: WorkspaceEdit, cwd: string, reader: (path: string) => string[] | undefined): CodeActionData['edits'] {
  const out: Array<CodeActionData['edits'][number]> = [];
  for (const [uri, edits] of textEdits(edit)) {
    const path = fromUri(uri);
    if (!path) continue;
    const lines = reader(path);
    for (const e of edits) {
      const empty = e.range.start.line === e.range.end.line && e.range.start.character === e.range.end.character;
      const oldText = empty ? '' : lines ? textInRange(lines, e.range) : '…';
      out.push({ file: displayPath(path, cwd), line: e.range.start.line + 1, column: e.range.start.character + 1, oldText, newText: e.newText });
    }
  }
  return out;
}
