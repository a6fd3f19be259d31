import { rethrowUnexpected } from '@agent-tools/core/internal';
import { DefinitionRequest, type Location, type LocationLink, type Position, WorkspaceSymbolRequest } from 'vscode-languageserver-protocol';
import { isLspError, LspError } from '../errors.js';
import { pathLabel } from '../format/outside-label.js';
import type { LanguageServer } from '../server/language-server.js';
import { fromUri, isInside } from '../util/paths.js';

/** What a refusal is about, for a sentence the model can act on. */
export interface RefusalContext {
  readonly server?: LanguageServer;
  readonly cwd: string;
  /** The symbol as written, and where: `file:line`. */
  readonly symbol?: string;
  readonly where?: string;
  /** For a rename: the new name; every sentence then ends saying nothing changed. */
  readonly newName?: string;
}

const ANSWERED = / answered (\S+) with an error: ([\s\S]*)$/;

/**
 * Common refusals of each server, said as what they mean and what to do instead of the server's own words (gopls:
 * "renaming this func "trim" to "TrimBytes"\tconflicts with func in same block"). Other errors are returned as they
 * are. For a rename conflict the existing declaration is looked up with the server's workspace symbols.
 */
export async function translateRefusal(error: unknown, context: RefusalContext): Promise<unknown> {
  if (!isLspError(error, 'request_failed')) return error;
  const said = ANSWERED.exec(error.detail);
  if (!said) return error;
  const method = said[1] as string;
  // vscode-jsonrpc wraps an exception thrown in a server's handler (typescript-language-server's refusals) in
  // "Request <method> failed with message: …"; absolute paths (clangd's conflicts) are said as labels.
  const raw = withLabels(
    (said[2] as string)
      .replace(/^Request \S+ failed with message:\s*/, '')
      .replace(/\s+/g, ' ')
      .trim()
      .replace(/\.+$/, ''),
    context.cwd,
  );
  const subject = context.symbol ? `\`${context.symbol}\`${context.where ? ` (${context.where})` : ''}` : 'that position';
  const nothing = context.newName !== undefined ? ' Nothing changed.' : '';
  const name = context.server?.config.name ?? (/^(.+?) \(root [^)]*\) answered /.exec(error.detail)?.[1] || 'The server');

  const conflict = /renaming this (\w+) "([^"]+)" to "([^"]+)" conflicts with (\w+) in (?:the )?same (block|scope|package)/i.exec(raw);
  if (conflict) {
    const to = conflict[3] as string;
    const at = context.server ? await declarationOf(context.server, to, context.cwd) : undefined;
    return refusal(`\`${to}\` already exists${at ? ` (${at})` : ''}, a ${conflict[4]} in the same ${conflict[5]} as \`${conflict[2]}\`; choose another name.${nothing}`, error);
  }
  // clangd: "invalid name: conflict with the symbol in file.c:98:29".
  const clash = /conflict with the symbol in (\S+?):(\d+):\d+$/.exec(raw);
  if (clash && context.newName !== undefined) {
    return refusal(`\`${context.newName}\` already exists (${clash[1]}:${clash[2]}) where ${subject} is visible; choose another name.${nothing}`, error);
  }
  if (/conflicts? with|would shadow|already (declared|defined|exists)|redeclar/i.test(raw) && context.newName !== undefined) {
    return refusal(`Renaming ${subject} to \`${context.newName}\` would clash with another declaration (${name}: ${raw}); choose another name.${nothing}`, error);
  }
  if (/no type definition for|no type (found|information)/i.test(raw)) {
    return refusal(`${name} knows no type for ${subject} (a package name, a keyword or a built-in has none). Use hover to see what it is.`, error);
  }
  if (/no (object|identifier|symbol|reference)s? (was )?found|there is no symbol at|no (identifier|symbol) at|not an identifier|Cannot find symbol/i.test(raw)) {
    return refusal(
      `${name} finds no symbol at ${subject}: it answers only for names it declares or uses (not a keyword, a package clause, a label or a comment). Address another name on the line, or another line.${nothing}`,
      error,
    );
  }
  const outside = OUTSIDE.find(([pattern]) => pattern.test(raw));
  if (outside) {
    return refusal(`${subject} is declared ${outside[1]}, outside the project's own code: ${name} renames only names the project declares.${nothing}`, error);
  }
  if (/symbol is not a supported kind/i.test(raw)) {
    // clangd says this of macros, namespaces and overloaded operators, and of every symbol of a system header.
    return refusal(
      `${name} does not rename ${subject}: it renames no macro, namespace or overloaded operator, and nothing declared in a system header (outside the project). To change it anyway, edit its uses.${nothing}`,
      error,
    );
  }
  const tooMany = /number of affected files exceeds the max limit (\d+)/i.exec(raw);
  if (tooMany) {
    return refusal(
      `Renaming ${subject} would change more than ${tooMany[1]} files, more than ${name} renames at once (a C name with external linkage, such as \`main\`, is one symbol in every file that declares it). Rename it file by file with edits instead.${nothing}`,
      error,
    );
  }
  if (/new name is the same as the old name/i.test(raw)) {
    return refusal(`${subject} is already called \`${context.newName ?? context.symbol ?? ''}\`: there is nothing to rename.${nothing}`, error);
  }
  if (/there are multiple symbols at the given location/i.test(raw)) {
    return refusal(`${name} sees more than one symbol at ${subject} (a macro expansion or a using-declaration); address the name where it is declared.${nothing}`, error);
  }
  if (/You cannot rename this element/i.test(raw)) {
    return refusal(`${name} cannot rename ${subject}: it is not a name that can be renamed (a keyword, a literal or a built-in). Address a declared name.${nothing}`, error);
  }
  if (/cannot be renamed|can(no|')t rename|not (a )?renam(e)?able|You cannot rename|rename.*(not supported|is not allowed)|used outside main file|symbol is not a supported kind/i.test(raw) && method.includes('ename')) {
    return refusal(`${name} cannot rename ${subject}: ${raw.replace(/^(rename failed|Cannot rename symbol):?\s*/i, '')}.${nothing}`, error);
  }
  if (/no project|could not find (source )?file|is not (in|part of) (the|any) (project|workspace|package)|no package (metadata )?for/i.test(raw)) {
    return refusal(
      `${name} has no project that includes ${context.where?.split(':')[0] ?? 'the file'} (${raw}): check that its project configuration (tsconfig.json include, go.mod, compile_commands.json) covers it, then call lsp with action "reload".${nothing}`,
      error,
    );
  }
  return error;
}

/** Servers' words for a name declared where nothing is renamed, and where that is. */
const OUTSIDE: ReadonlyArray<readonly [RegExp, string]> = [
  [/defined in the standard TypeScript library/i, "in TypeScript's standard library (lib.*.d.ts)"],
  [/defined in (a|another) 'node_modules' folder/i, 'in a package under node_modules'],
  [/You cannot rename a module via a global import/i, 'as a module imported globally'],
];

/** The text with every absolute path (with an optional :line:column) replaced by its label. */
function withLabels(text: string, cwd: string): string {
  return text.replace(/(?<![\w.])\/[^\s:'"`,;()]+/g, (path) => pathLabel(path, cwd));
}

function refusal(detail: string, cause: LspError): LspError {
  return new LspError('request_failed', detail, { hint: '', cause });
}

/** Where a name is declared inside the working directory, as `file:line`, by the server's own symbol search. */
async function declarationOf(server: LanguageServer, name: string, cwd: string): Promise<string | undefined> {
  try {
    const found = await server.request(WorkspaceSymbolRequest.type, { query: name }, { timeoutMs: 5000 });
    for (const symbol of found ?? []) {
      if (symbol.name !== name && !symbol.name.endsWith(`.${name}`)) continue;
      const path = fromUri(symbol.location.uri);
      if (!path || !('range' in symbol.location)) continue;
      const label = pathLabel(path, cwd);
      return `${label}:${symbol.location.range.start.line + 1}`;
    }
  } catch (error) {
    // The server did not answer (an LspError): the sentence stands without the place; a bug (our reading of what
    // the server sent included) propagates.
    rethrowUnexpected(error);
  }
  return undefined;
}

/**
 * Why a server declines to rename at a position without an error (pyright answers prepareRename with null): a name
 * declared only outside the working directory (a standard-library or installed module's) is said so, with where.
 */
export async function declinedRename(server: LanguageServer, uri: string, at: Position, subject: string, cwd: string): Promise<string> {
  const fallback = `${subject} cannot be renamed: the server says there is no renameable symbol there (a keyword, a literal, or a name it does not resolve). Nothing changed.`;
  let found: Location | Location[] | LocationLink[] | null = null;
  try {
    found = await server.request(DefinitionRequest.type, { textDocument: { uri }, position: at }, { timeoutMs: 5000 });
  } catch (error) {
    // The server did not answer (an LspError): the plain reason stands; a bug propagates.
    rethrowUnexpected(error);
    return fallback;
  }
  const places = (Array.isArray(found) ? found : found ? [found] : []).map((l) =>
    'targetUri' in l ? { uri: l.targetUri, line: l.targetSelectionRange.start.line } : { uri: l.uri, line: l.range.start.line },
  );
  const paths = places.map((p) => ({ path: fromUri(p.uri), line: p.line }));
  if (paths.length === 0 || paths.some((p) => !p.path || isInside(cwd, p.path))) return fallback;
  const first = paths[0] as { path: string; line: number };
  return `${subject} is declared outside the working directory (${pathLabel(first.path, cwd)}:${first.line + 1}): ${server.config.name} renames only names the project declares. Nothing changed.`;
}
