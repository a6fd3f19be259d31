import { accessSync, constants, existsSync, statSync } from 'node:fs';
import { CoreError, readRegularFileSync, resolveInside } from '@agent-tools/core';
import { applyFileChanges, type FileChangesOptions } from '@agent-tools/core/internal';
import type { TextDocumentEdit, TextEdit, WorkspaceEdit } from 'vscode-languageserver-protocol';
import { LspError } from '../errors.js';
import { displayPath, fromUri, isInside, relativeText } from '../util/paths.js';
import { applyTextEdits } from './text-edits.js';

/** One file's part of a planned edit. */
export interface FileChange {
  readonly path: string;
  /** Content before, undefined when the file does not exist yet. */
  readonly before: string | undefined;
  /** Content after, undefined when the edit deletes it. */
  readonly after: string | undefined;
  /** Text edits applied to it. */
  readonly edits: number;
}

/** A workspace edit checked and computed in memory, ready to be applied as a whole. */
export interface EditPlan {
  readonly changes: readonly FileChange[];
}

/** The version and text the server was sent for a file, when it has it open. */
export type OpenVersions = (path: string) => { readonly version: number; readonly text: string } | undefined;

interface Virtual {
  before: string | undefined;
  after: string | undefined;
  edits: number;
}

/**
 * Checks a WorkspaceEdit and computes every file's new content in memory: every path must be inside the
 * working directory, every versioned document must be the version the server was sent, and every open
 * document must still match the disk. Nothing is written; a problem throws `edit_failed`.
 */
export function planWorkspaceEdit(edit: WorkspaceEdit, cwd: string, open: OpenVersions, again = 'Call lsp_rename again.'): EditPlan {
  const retry = again ? ` ${again}` : '';
  const files = new Map<string, Virtual>();
  const touch = (path: string): Virtual => {
    let entry = files.get(path);
    if (!entry) {
      const before = existsSync(path) ? readUtf8(path, cwd) : undefined;
      entry = { before, after: before, edits: 0 };
      files.set(path, entry);
    }
    return entry;
  };
  const pathOf = (uri: string): string => {
    const path = fromUri(uri);
    if (!path) throw new LspError('edit_failed', `The edit names ${uri}, which is not a file; nothing was changed.`);
    try {
      return resolveInside(cwd, path).absolute;
    } catch (error) {
      if (error instanceof CoreError && error.code === 'outside_workspace') {
        // A path inside the working directory that a symbolic link leads out of is named as the model knows it.
        const where = isInside(cwd, path)
          ? `${displayPath(path, cwd)}, which a symbolic link leads outside the working directory`
          : `${path}, outside the working directory`;
        throw new LspError('edit_failed', `The edit would change ${where}; nothing was changed.`);
      }
      throw new LspError('edit_failed', `The edit names ${path}, which cannot be written (${(error as Error).message}); nothing was changed.`);
    }
  };
  const textEdit = (uri: string, edits: readonly TextEdit[], version: number | null | undefined): void => {
    const path = pathOf(uri);
    const entry = touch(path);
    const rel = displayPath(path, cwd);
    if (entry.after === undefined) throw new LspError('edit_failed', `The edit changes ${rel}, which does not exist; nothing was changed.`);
    const seen = open(path);
    if (seen && entry.edits === 0 && entry.before !== seen.text) {
      throw new LspError('edit_failed', `${rel} changed on disk after the server read it; nothing was changed.${retry}`);
    }
    if (typeof version === 'number' && seen && seen.version !== version) {
      throw new LspError('edit_failed', `The edit was computed for version ${version} of ${rel}, but the server has version ${seen.version}; nothing was changed.${retry}`);
    }
    entry.after = applyTextEdits(entry.after, edits, rel);
    entry.edits += edits.length;
  };

  if (edit.documentChanges) {
    for (const change of edit.documentChanges) {
      if ('textDocument' in change) {
        const documentEdit = change as TextDocumentEdit;
        textEdit(documentEdit.textDocument.uri, documentEdit.edits as TextEdit[], documentEdit.textDocument.version);
      } else if (change.kind === 'create') {
        const entry = touch(pathOf(change.uri));
        if (entry.after !== undefined) {
          if (change.options?.ignoreIfExists && !change.options.overwrite) continue;
          if (!change.options?.overwrite) throw new LspError('edit_failed', `The edit creates ${displayPath(pathOf(change.uri), cwd)}, which exists; nothing was changed.`);
        }
        entry.after = '';
      } else if (change.kind === 'rename') {
        const from = touch(pathOf(change.oldUri));
        const target = touch(pathOf(change.newUri));
        if (from.after === undefined) throw new LspError('edit_failed', `The edit renames ${displayPath(pathOf(change.oldUri), cwd)}, which does not exist; nothing was changed.`);
        if (target.after !== undefined) {
          if (change.options?.ignoreIfExists && !change.options.overwrite) continue;
          if (!change.options?.overwrite) throw new LspError('edit_failed', `The edit renames a file onto ${displayPath(pathOf(change.newUri), cwd)}, which exists; nothing was changed.`);
        }
        target.after = from.after;
        target.edits += 1;
        from.after = undefined;
      } else if (change.kind === 'delete') {
        const path = pathOf(change.uri);
        if (existsSync(path) && statSync(path).isDirectory()) {
          throw new LspError('edit_failed', `The edit deletes the folder ${displayPath(path, cwd)}, which lsp_rename does not do; nothing was changed.`);
        }
        const entry = touch(path);
        if (entry.after === undefined && !change.options?.ignoreIfNotExists) {
          throw new LspError('edit_failed', `The edit deletes ${displayPath(path, cwd)}, which does not exist; nothing was changed.`);
        }
        entry.after = undefined;
      }
    }
  } else if (edit.changes) {
    for (const [uri, edits] of Object.entries(edit.changes)) textEdit(uri, edits, undefined);
  }
  const changes = [...files].map(([path, v]) => ({ path, before: v.before, after: v.after, edits: v.edits })).filter((c) => c.before !== c.after);
  const readOnly = changes.filter((c) => c.before !== undefined && !writable(c.path));
  if (readOnly.length > 0) {
    const names = readOnly.map((c) => `${displayPath(c.path, cwd)} (mode ${(statSync(c.path).mode & 0o777).toString(8)})`).join(', ');
    throw new LspError(
      'edit_failed',
      `The edit would change ${names}, which ${readOnly.length === 1 ? 'is' : 'are'} read-only; nothing was changed. Ask the user before making ${readOnly.length === 1 ? 'it' : 'them'} writable.`,
    );
  }
  return { changes };
}

/**
 * A file's text, which must be UTF-8: positions and edits are computed on the decoded text, and a file with other
 * bytes (a Latin-1 comment) would come back different from what was read, which the final check would take for a
 * change on disk and refuse with advice to try again, again and again.
 */
function readUtf8(path: string, cwd: string): string {
  const bytes = readRegularFileSync(path, displayPath(path, cwd));
  const text = bytes.toString('utf8');
  if (!Buffer.from(text, 'utf8').equals(bytes)) {
    const at = text.indexOf('\ufffd');
    const line = at < 0 ? 1 : text.slice(0, at).split(/\r\n|\r|\n/).length;
    throw new LspError(
      'edit_failed',
      `${displayPath(path, cwd)} is not UTF-8 text (line ${line} has other bytes), and edits are made on UTF-8 only; nothing was changed. Edit it with your own tools, or convert it to UTF-8 first.`,
    );
  }
  return text;
}

/** Whether a file may be written: its owner's write bit is set (root can write anything) and access allows it. */
function writable(path: string): boolean {
  try {
    if ((statSync(path).mode & 0o200) === 0) return false;
    accessSync(path, constants.W_OK);
    return true;
  } catch {
    // stat and access raise only file-system errors: not writable.
    return false;
  }
}

/**
 * Applies a plan all or nothing through core's `applyFileChanges`: the disk is checked against the plan once more,
 * new contents go to temporary files beside their targets and are renamed into place only when all are written;
 * any failure undoes what was done and throws `edit_failed`.
 */
export async function applyEditPlan(plan: EditPlan, cwd: string, options: FileChangesOptions = {}, again = 'Call lsp_rename again.'): Promise<void> {
  const outcome = await applyFileChanges(plan.changes, options);
  if (outcome.ok) return;
  if (outcome.kind === 'changed') {
    const files = outcome.changed.map((c) => displayPath(c.path, cwd)).join(', ');
    throw new LspError('edit_failed', `${files} changed on disk while the edit was prepared; nothing was changed.${again ? ` ${again}` : ''}`);
  }
  const lost = outcome.notRestored.map((path) => displayPath(path, cwd));
  const undone = lost.length ? `restoring failed for ${lost.join(', ')}` : 'every file was restored';
  throw new LspError('edit_failed', `Applying the edit failed (${relativeText(outcome.reason, cwd)}); ${undone}.`);
}
