import type { ToolResult } from '@agent-tools/core';
import { capList, plural, rethrowUnexpected } from '@agent-tools/core/internal';
import {
  type CodeAction,
  CodeActionRequest,
  CodeActionTriggerKind,
  type Command,
  type Diagnostic as LspDiagnostic,
  type WorkspaceEdit,
} from 'vscode-languageserver-protocol';
import { fromLspDiagnostic } from '../../diagnostics/convert.js';
import { ignoredByConfiguration } from '../../diagnostics/ignored-files.js';
import { editedPaths, textEdits } from '../../edits/edit-files.js';
import { LineReader } from '../../format/line-reader.js';
import type { OpenDocument } from '../../server/documents.js';
import type { LanguageServer } from '../../server/language-server.js';
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
  /** Which server offers it, when the file has several (`eslint`). */
  readonly server?: string;
}

/**
 * code_actions: the quick fixes and refactorings the server offers at the symbol, given the diagnostics on its
 * line (servers compute quick fixes from them). Nothing is applied.
 */
export async function codeActions(env: ToolEnv, params: LspParams, signal: AbortSignal): Promise<ToolResult> {
  const target = await openTarget(env, params, 'code_actions', signal);
  const { server, doc, position, file, path, symbol } = target;
  // The additional servers (ESLint, Biome) offer their fixes beside the primary server's.
  const others = await additionalServers(env, path, signal);
  const askable = [server, ...others].filter((s) => s.capabilities.codeActionProvider);
  if (askable.length === 0) requireCapability(server, 'codeActionProvider', 'code actions', 'Read the diagnostics and make the fix with your edit tool.');
  // An additional server is asked about the whole line: its actions fix the problems on it (Biome offers a fix only
  // for a range that covers the problem, which the symbol's own range need not).
  const lineWide = { line: position.line, character: 0, length: position.lineText.length };
  const answers = await Promise.all(askable.map((s) => offered(s, s === server ? doc : s.open(path), s === server ? position : lineWide, signal)));
  const items = answers.flatMap((a) => a.items.map((item) => ({ item, server: a.server })));
  const lineDiagnostics = answers.flatMap((a) => a.lineDiagnostics.map((d) => ({ d, server: a.server })));
  const listed = capList(items, MAX_ACTIONS);
  const readers = new Map(askable.map((s) => [s, new LineReader(env.cwd, (p) => s.documents.get(p)?.text)]));
  const several = askable.length > 1;
  const actions = listed.items.map(({ item, server: from }) => ({
    ...toData(item, env.cwd, (p) => readers.get(from)?.lines(p), (edit) => from.positions.workspaceEdit(edit)),
    ...(several ? { server: from.config.name } : {}),
  }));
  const texts = snapshotTexts(editedBy(listed.items.map((l) => l.item)));
  texts.set(path, doc.text);
  env.listings.remember(path, {
    server,
    line: position.line + 1,
    symbol,
    actions: listed.items.map((l) => l.item),
    servers: listed.items.map((l) => l.server),
    texts,
  });
  const problems = lineDiagnostics.map(({ d, server: from }) => {
    const diagnostic = fromLspDiagnostic(doc.path, d.source ? d : { ...d, source: from.config.id });
    const label = several ? ` [${diagnostic.source}]` : '';
    return `${diagnostic.severity}${diagnostic.code === undefined ? '' : ` ${diagnostic.code}`}: ${diagnostic.message.split('\n')[0]}${label}`;
  });
  const context = `${target.partialLine}${problems.length ? `Problems on line ${position.line + 1}: ${problems.join('; ')}\n` : ''}`;
  if (actions.length === 0) {
    const who = several ? 'The servers offer' : 'The server offers';
    return ok(`${context}${who} no code actions at \`${params.symbol}\` (${file}:${position.line + 1}).`, { action: 'code_actions', total: 0, actions: [] });
  }
  const lines = [
    `${context}${plural(listed.total, 'code action')} at \`${symbol}\` (${file}:${position.line + 1}); none is applied yet. Where you may change files, apply one with lsp_fix (file and its number) or make the change with your edit tool:`,
  ];
  for (const [index, action] of actions.entries()) {
    const tags = [action.kind, action.preferred ? 'preferred' : undefined].filter(Boolean).join(', ');
    const from = 'server' in action ? ` (${action.server})` : '';
    lines.push(`${index + 1}. ${action.title}${tags ? ` [${tags}]` : ''}${from}`);
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

/** The additional servers of a file that are running or can start; one that cannot is left out of code actions. */
async function additionalServers(env: ToolEnv, path: string, signal: AbortSignal): Promise<LanguageServer[]> {
  const found = await Promise.all(
    env.supervisor.additionalFor(path).map(async (a) => {
      if (!a.ok) return undefined;
      try {
        return await env.supervisor.serverForRoot(a.config, a.root, a.binary, signal);
      } catch (error) {
        // A start that failed (an LspError) is what status and diagnostics report; a bug propagates.
        rethrowUnexpected(error);
        return undefined; // The primary server's actions still come.
      }
    }),
  );
  return found.filter((s): s is LanguageServer => s !== undefined);
}

/** What one server offers at a position, given its own diagnostics on that line (servers compute quick fixes from them). */
async function offered(server: LanguageServer, doc: OpenDocument | undefined, position: { line: number; character: number; length: number }, signal: AbortSignal) {
  const none = { server, items: [] as Array<Command | CodeAction>, lineDiagnostics: [] as LspDiagnostic[] };
  // A file the server's configuration ignores gets nothing from it (Biome's diagnostics would be awaited in vain).
  if (!doc || (await ignoredByConfiguration(server, doc.path))) return none;
  const path = doc.path;
  let lineDiagnostics: LspDiagnostic[] = [];
  try {
    const all = await server.diagnostics.of(doc, Date.now() + 10_000, signal);
    const notice = server.config.ignoredNotice;
    if (notice && all.some((d) => notice(d))) return none;
    lineDiagnostics = all.filter((d) => d.range.start.line <= position.line && d.range.end.line >= position.line);
  } catch (error) {
    // A server that could not give them (an LspError) still offers refactorings without them; a bug propagates.
    rethrowUnexpected(error);
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
  return { server, items: answer ?? [], lineDiagnostics };
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
