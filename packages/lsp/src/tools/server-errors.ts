import { WorkspaceSymbolRequest } from 'vscode-languageserver-protocol';
import { isLspError, LspError } from '../errors.js';
import { pathLabel } from '../format/outside-label.js';
import type { LanguageServer } from '../server/language-server.js';
import { fromUri } from '../util/paths.js';

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
  const raw = (said[2] as string).replace(/\s+/g, ' ').trim();
  const subject = context.symbol ? `\`${context.symbol}\`${context.where ? ` (${context.where})` : ''}` : 'that position';
  const nothing = context.newName !== undefined ? ' Nothing changed.' : '';
  const name = context.server?.config.name ?? (/^(.+?) \(root [^)]*\) answered /.exec(error.detail)?.[1] || 'The server');

  const conflict = /renaming this (\w+) "([^"]+)" to "([^"]+)" conflicts with (\w+) in (?:the )?same (block|scope|package)/i.exec(raw);
  if (conflict) {
    const to = conflict[3] as string;
    const at = context.server ? await declarationOf(context.server, to, context.cwd) : undefined;
    return refusal(`\`${to}\` already exists${at ? ` (${at})` : ''}, a ${conflict[4]} in the same ${conflict[5]} as \`${conflict[2]}\`; choose another name.${nothing}`, error);
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
  } catch {
    // The sentence stands without the place.
  }
  return undefined;
}
