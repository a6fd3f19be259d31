import { readRegularFileSync } from '@agent-tools/core';
import type { WorkspaceEdit } from 'vscode-languageserver-protocol';
import { isIdentifierChar } from '../position/code-mask.js';
import { displayPath, fromUri } from '../util/paths.js';
import { splitLines, textInRange } from '../util/text.js';
import { textEdits } from './edit-files.js';

/** Why a rename's edits cannot be trusted, or undefined when every edit renames `oldName` to `newName`. */
export type RenameCheck = { readonly ok: true } | { readonly ok: false; readonly alias: boolean; readonly reason: string };

/**
 * Checks every text edit of a rename before anything is written: the text it replaces must be the old name, as a
 * whole identifier, possibly inside a larger token the server rewrites (`#count`, `"name"`, an import path), and
 * the new text must be the same with the new name in its place. An edit that replaces anything else would write
 * the new name into the wrong place (positions that went astray) and refuses the whole rename. An edit that keeps
 * the old name and adds the new one only aliases (`import { x as y }`).
 */
export function verifyRenameEdits(
  edit: WorkspaceEdit,
  oldName: string,
  newName: string,
  cwd: string,
  textOf: (path: string) => string | undefined,
): RenameCheck {
  const cache = new Map<string, string[] | undefined>();
  const linesOf = (path: string): string[] | undefined => {
    if (!cache.has(path)) {
      let text = textOf(path);
      if (text === undefined) {
        try {
          text = readRegularFileSync(path).toString('utf8');
        } catch {
          // A file-system error or not_regular_file: the file cannot be checked, which the caller says.
          text = undefined;
        }
      }
      cache.set(path, text === undefined ? undefined : splitLines(text));
    }
    return cache.get(path);
  };
  for (const [uri, edits] of textEdits(edit)) {
    const path = fromUri(uri);
    if (!path) continue;
    const lines = linesOf(path);
    if (!lines) continue; // A file that does not exist yet: the edit plan refuses it with a clearer reason.
    for (const e of edits) {
      const replaced = textInRange(lines, e.range);
      if (renames(replaced, e.newText, oldName, newName)) continue;
      const where = `${displayPath(path, cwd)}:${e.range.start.line + 1}:${e.range.start.character + 1}`;
      const alias = e.newText.includes(oldName) && e.newText.includes(newName) && /\bas\b|:/.test(e.newText);
      return {
        ok: false,
        alias,
        reason: `the edit at ${where} would replace ${JSON.stringify(replaced)} with ${JSON.stringify(e.newText)}`,
      };
    }
  }
  return { ok: true };
}

/** Whether `replaced` → `newText` is the old name replaced by the new one, with the same text around it. */
function renames(replaced: string, newText: string, oldName: string, newName: string): boolean {
  for (let at = replaced.indexOf(oldName); at >= 0; at = replaced.indexOf(oldName, at + 1)) {
    const end = at + oldName.length;
    if (isIdentifierChar(replaced, at - 1) || isIdentifierChar(replaced, end)) continue;
    if (newText === replaced.slice(0, at) + newName + replaced.slice(end)) return true;
  }
  return false;
}
