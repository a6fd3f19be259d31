import type { TextEdit, WorkspaceEdit } from 'vscode-languageserver-protocol';
import { fromUri } from '../util/paths.js';

/** The text edits of a workspace edit per document URI (`documentChanges` when present, else `changes`). */
export function* textEdits(edit: WorkspaceEdit): Generator<[string, readonly TextEdit[]]> {
  if (edit.documentChanges) {
    for (const change of edit.documentChanges) {
      if ('textDocument' in change) yield [change.textDocument.uri, change.edits as TextEdit[]];
    }
  } else if (edit.changes) yield* Object.entries(edit.changes);
}

/** The absolute paths whose text a workspace edit changes (file operations aside). */
export function editedPaths(edit: WorkspaceEdit | undefined): string[] {
  if (!edit) return [];
  const paths = new Set<string>();
  for (const [uri] of textEdits(edit)) {
    const path = fromUri(uri);
    if (path) paths.add(path);
  }
  return [...paths];
}
