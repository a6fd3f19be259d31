import type { CodeAction, Command } from 'vscode-languageserver-protocol';
import type { LanguageServer } from '../server/language-server.js';

/** One code_actions answer, kept so that lsp_fix can apply an action by its number. */
export interface CodeActionListing {
  readonly server: LanguageServer;
  /**
   * The text of the listed file and of every file the listed actions edit, when the list was made (undefined for a
   * file that did not exist): an action is applied only to those texts.
   */
  readonly texts: ReadonlyMap<string, string | undefined>;
  /** 1-based line and the symbol the list was made for, for messages. */
  readonly line: number;
  readonly symbol: string;
  /** The actions as numbered in the answer (1 = first), with positions as the server counts them. */
  readonly actions: ReadonlyArray<Command | CodeAction>;
  /** The server that offered each action, by the same index, when the file has several servers (ESLint's fixes). */
  readonly servers?: readonly LanguageServer[];
}

const MAX_FILES = 50;

/** The latest code_actions list per file (absolute path), bounded. */
export class CodeActionListings {
  readonly #byFile = new Map<string, CodeActionListing>();

  remember(path: string, listing: CodeActionListing): void {
    this.#byFile.delete(path);
    this.#byFile.set(path, listing);
    if (this.#byFile.size > MAX_FILES) this.#byFile.delete(this.#byFile.keys().next().value as string);
  }

  get(path: string): CodeActionListing | undefined {
    return this.#byFile.get(path);
  }
}
