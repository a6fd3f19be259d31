import { statSync } from 'node:fs';
import { readRegularFileSync } from '@agent-tools/core';
import type { Position, Range, TextEdit, WorkspaceEdit } from 'vscode-languageserver-protocol';
import { fromUri } from '../util/paths.js';

/**
 * The line starts of a text under two rules: LSP's (`\r\n`, `\n`, `\r`) and the server's (those plus its own). A
 * server that read the file without its byte order mark starts its first line one unit later.
 */
class LineStarts {
  readonly lsp: number[] = [0];
  readonly server: number[];

  constructor(
    readonly text: string,
    extra: string,
    bomSkipped: boolean,
  ) {
    this.server = [bomSkipped ? 1 : 0];
    for (let i = 0; i < text.length; i++) {
      const c = text[i] as string;
      if (c === '\r' || c === '\n') {
        if (c === '\r' && text[i + 1] === '\n') i++;
        this.lsp.push(i + 1);
        this.server.push(i + 1);
      } else if (extra.includes(c)) this.server.push(i + 1);
    }
  }

  convert(position: Position, from: number[], to: number[]): Position {
    const line = Math.min(Math.max(0, position.line), from.length - 1);
    const start = from[line] as number;
    const next = line + 1 < from.length ? (from[line + 1] as number) : this.text.length + 1;
    const offset = Math.min(start + Math.max(0, position.character), next - 1, this.text.length);
    let low = 0;
    let high = to.length - 1;
    while (low < high) {
      const mid = (low + high + 1) >> 1;
      if ((to[mid] as number) <= offset) low = mid;
      else high = mid - 1;
    }
    return { line: low, character: Math.max(0, offset - (to[low] as number)) };
  }
}

const MAX_FILE_BYTES = 16 * 1024 * 1024;

/**
 * Translates positions between LSP's lines and a server that counts lines differently. tsserver counts U+2028 and
 * U+2029 as line breaks while LSP does not, so in a file that contains them every position after one is a line off
 * unless mapped: a rename would write into the wrong place. tsserver also drops the byte order mark of a file it
 * reads from disk (not of one it was sent), so on the first line of such a file every column is one off. For other
 * servers, and for files without such characters, positions pass through unchanged.
 */
export class PositionMapper {
  readonly #extra: string;
  readonly #stripsBom: boolean;
  readonly #textOf: (path: string) => string | undefined;
  readonly #cache = new Map<string, { key: string | undefined; text: string | undefined; starts: LineStarts | undefined }>();

  /**
   * `extra`: the characters the server also breaks lines at; `textOf`: the text the server has for an open file;
   * `stripsBom`: whether the server drops the byte order mark of files it reads from disk.
   */
  constructor(extra: string, textOf: (path: string) => string | undefined, stripsBom = false) {
    this.#extra = extra;
    this.#textOf = textOf;
    this.#stripsBom = stripsBom;
  }

  /** Whether this server needs any mapping at all. */
  get active(): boolean {
    return this.#extra.length > 0 || this.#stripsBom;
  }

  /** An LSP position in a file as the server counts it. */
  toServer(path: string, position: Position): Position {
    const starts = this.#starts(path);
    return starts ? starts.convert(position, starts.lsp, starts.server) : position;
  }

  /** A server's position in a file as LSP counts it. */
  fromServer(path: string, position: Position): Position {
    const starts = this.#starts(path);
    return starts ? starts.convert(position, starts.server, starts.lsp) : position;
  }

  /** A server's range in a file as LSP counts it. */
  range(path: string, range: Range): Range {
    if (!this.active) return range;
    return { start: this.fromServer(path, range.start), end: this.fromServer(path, range.end) };
  }

  /** A range given with a `file://` URI. */
  rangeAt(uri: string, range: Range): Range {
    const path = fromUri(uri);
    return path ? this.range(path, range) : range;
  }

  /** A server's workspace edit with every text edit's range as LSP counts it. */
  workspaceEdit(edit: WorkspaceEdit): WorkspaceEdit {
    if (!this.active) return edit;
    const edits = (uri: string, list: readonly TextEdit[]): TextEdit[] => list.map((e) => ({ ...e, range: this.rangeAt(uri, e.range) }));
    return {
      ...edit,
      ...(edit.changes ? { changes: Object.fromEntries(Object.entries(edit.changes).map(([uri, list]) => [uri, edits(uri, list)])) } : {}),
      ...(edit.documentChanges
        ? {
            documentChanges: edit.documentChanges.map((change) =>
              'textDocument' in change ? { ...change, edits: edits(change.textDocument.uri, change.edits as TextEdit[]) } : change,
            ),
          }
        : {}),
    };
  }

  #starts(path: string): LineStarts | undefined {
    if (!this.active) return undefined;
    const open = this.#textOf(path);
    let key: string | undefined;
    if (open === undefined) {
      try {
        const info = statSync(path);
        if (info.size > MAX_FILE_BYTES) return undefined;
        key = `${info.mtimeMs}:${info.size}`;
      } catch {
        // stat raises only file-system errors: the file is gone.
        return undefined;
      }
    }
    const cached = this.#cache.get(path);
    // An open document is compared by its text (the same string while the version stays), a file on disk by its stat.
    if (cached && (open === undefined ? cached.key === key : cached.text === open)) return cached.starts;
    let text = open;
    if (text === undefined) {
      try {
        text = readRegularFileSync(path).toString('utf8');
      } catch {
        // A file-system error or not_regular_file: no text to map.
        return undefined;
      }
    }
    const source = text;
    // The server was sent an open document's text as it is, BOM included; it read any other file itself.
    const bomSkipped = this.#stripsBom && open === undefined && source.startsWith('\uFEFF');
    const starts = bomSkipped || [...this.#extra].some((c) => source.includes(c)) ? new LineStarts(source, this.#extra, bomSkipped) : undefined;
    this.#cache.set(path, { key, text: open, starts });
    if (this.#cache.size > 500) this.#cache.delete(this.#cache.keys().next().value as string);
    return starts;
  }
}
