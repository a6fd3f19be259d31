import { join } from 'node:path';
import { errorDetail, errorResult, type ToolResult } from '@agent-tools/core';
import { plural, rethrowUnexpected } from '@agent-tools/core/internal';
import { DocumentSymbolRequest, WorkspaceSymbolRequest } from 'vscode-languageserver-protocol';
import type { ServerConfig } from '../../config/server-config.js';
import { findBinary } from '../../discovery/binary.js';
import { discoverRoots, listSourceFiles } from '../../discovery/root.js';
import { LspError } from '../../errors.js';
import { callWith, cutInHead } from '../../format/paging.js';
import { documentOutline, nameMatches, renderOutline, renderWorkspaceSymbols, type SymbolData, workspaceSymbols } from '../../format/symbols.js';
import type { LanguageServer } from '../../server/language-server.js';
import { displayPath } from '../../util/paths.js';
import type { LspParams } from '../lsp-parameters.js';
import { pageData } from '../page-data.js';
import { pathFilter } from '../path-filter.js';
import { askWhenComplete, incompleteLine, ok, openFile, type Reporter, requireCapability, type ToolEnv } from '../shared.js';

const OUTLINE_CAP = 200;
const WORKSPACE_CAP = 100;
const MAX_STARTED = 4;

/** symbols: a file's outline (`file`), or a workspace search (`query`); both: the outline filtered by name. */
export async function symbols(env: ToolEnv, params: LspParams, signal: AbortSignal, report?: Reporter): Promise<ToolResult> {
  if (params.file) return outline(env, params, signal);
  const query = params.query?.trim();
  if (!query) {
    return errorResult('The symbols action needs "query" (a name to search the workspace for) or "file" (for its outline).', { error: 'bad_arguments' });
  }
  return search(env, query, params, signal, report);
}

async function outline(env: ToolEnv, params: LspParams, signal: AbortSignal): Promise<ToolResult> {
  const { server, doc, file, path } = await openFile(env, params.file, 'symbols', signal);
  requireCapability(server, 'documentSymbolProvider', 'document symbols', 'Read the file instead.');
  const answer = await server.request(DocumentSymbolRequest.type, { textDocument: { uri: doc.uri } }, { signal });
  let list = documentOutline(answer, file, path, (p, r) => server.positions.range(p, r));
  const query = params.query?.trim().toLowerCase();
  if (query) list = list.filter((s) => s.name.toLowerCase().includes(query));
  if (list.length === 0) {
    const why = query ? ` matching "${params.query}"` : '';
    return ok(`The server reports no symbols${why} in ${file}.`, { action: 'symbols', file, total: 0, symbols: [] });
  }
  const rendered = renderOutline(list, OUTLINE_CAP);
  return ok(`${plural(list.length, 'symbol')} in ${file}${query ? ` matching "${params.query}"` : ''}:\n${rendered.text}`, {
    action: 'symbols',
    file,
    total: list.length,
    ...(rendered.note ? { note: rendered.note } : {}),
    symbols: rendered.shown,
  });
}

async function search(env: ToolEnv, query: string, params: LspParams, signal: AbortSignal, report?: Reporter): Promise<ToolResult> {
  const filter = pathFilter(env.cwd, params.path);
  const { servers, problems } = await workspaceServers(env, signal);
  if (servers.length === 0) {
    const why = problems.length ? ` ${problems.join(' ')}` : ' No project root of any configured server was found in the working directory.';
    return errorResult(`No language server can search this workspace.${why} Call lsp with action "status" for details.`, { error: 'no_server' });
  }
  const found: SymbolData[] = [];
  const failures: string[] = [...problems];
  const incomplete: string[] = [];
  const cut: string[] = [];
  await Promise.all(
    servers.map(async (server) => {
      try {
        if (!server.capabilities.workspaceSymbolProvider) throw new LspError('unsupported', `${server.config.name} does not offer a workspace symbol search.`);
        anchorProject(server);
        const { answer, completeness } = await askWhenComplete(env, server, signal, () => server.request(WorkspaceSymbolRequest.type, { query }, { signal }), report);
        if (!completeness.complete) incomplete.push(completeness.reason);
        const limit = server.config.workspaceSymbolLimit;
        if (limit !== undefined && (answer?.length ?? 0) >= limit) cut.push(`${server.config.name} returned its maximum of ${limit}`);
        found.push(...workspaceSymbols(answer, env.cwd, (p, r) => server.positions.range(p, r)));
      } catch (error) {
        rethrowUnexpected(error);
        failures.push(errorDetail(error));
      }
    }),
  );
  // A server that could not be searched leaves the answer incomplete, and says so first, like an index still building.
  const searched = servers.length - (failures.length - problems.length);
  if (searched === 0) {
    return errorResult(`No language server could search the workspace for "${query}": ${failures.join(' ')} Call lsp with action "status" for details, or try again in a moment.`, { error: 'not_searched' });
  }
  const missing = failures.length ? `not every server was searched (${failures.join(' ')})` : '';
  const reason = [...incomplete, ...(missing ? [missing] : [])].join('; ');
  const lead = incompleteLine(reason ? { complete: false, reason } : { complete: true });
  const cutLine = cut.length ? `CUT BY THE SERVER: ${cut.join('; ')}, so other matches may exist; refine the query.\n` : '';
  const flags = {
    ...(reason ? { incomplete: reason } : {}),
    ...(cut.length ? { truncatedByServer: true } : {}),
  };
  // Servers match fuzzily (gopls's "MIME" finds Meetei_Mayek): only names that contain the query, or abbreviate it
  // by camel-case words, are answers.
  const matching = found.filter((s) => nameMatches(s.name, query));
  const dropped = found.length - matching.length;
  const inside = matching.filter((s) => !s.outside);
  const outsideCount = matching.length - inside.length;
  // Outside symbols (libraries, the standard library) only when asked for, or when the project itself has none.
  const showOutside = params.outside === true || (inside.length === 0 && !filter);
  const listed = (showOutside ? matching : inside).filter((s) => !filter || (!s.outside && filter.matches(join(env.cwd, s.file))));
  const notes: string[] = [];
  if (dropped > 0) notes.push(`${plural(dropped, 'fuzzy match', 'fuzzy matches')} not containing "${query}" left out`);
  if (!showOutside && outsideCount > 0) notes.push(`${plural(outsideCount, 'match', 'matches')} outside the working directory not listed (add "outside": true to see them)`);
  const aside = notes.map((note) => `\n(${note})`).join('');
  const flags2 = { ...flags, ...(dropped ? { droppedFuzzy: dropped } : {}), ...(!showOutside && outsideCount ? { outsideNotListed: outsideCount } : {}) };
  if (listed.length === 0) {
    const where = filter ? ` in ${filter.label}` : '';
    return ok(`${lead}${cutLine}No symbol matches "${query}"${where}.${aside}`, { action: 'symbols', query, total: 0, ...flags2, symbols: [] });
  }
  const rendered = renderWorkspaceSymbols(listed, { max: WORKSPACE_CAP, query, offset: params.offset ?? 0, nextCall: (offset) => callWith(params, offset) });
  const outside = listed.filter((s) => s.outside).length;
  const split = outside > 0 ? ` (${listed.length - outside} in the working directory, ${outside} outside it)` : '';
  const where = filter ? ` in ${filter.label}` : '';
  return ok(`${lead}${cutLine}${plural(listed.length, 'symbol')} matching "${query}"${where}${split}${cutInHead(rendered)}:\n${rendered.text}${aside}`, {
    action: 'symbols',
    query,
    total: listed.length,
    ...flags2,
    ...pageData(rendered, filter),
    symbols: rendered.shown,
  });
}

/** The servers of every project root in the working directory, started as needed. */
async function workspaceServers(env: ToolEnv, signal: AbortSignal): Promise<{ servers: LanguageServer[]; problems: string[] }> {
  const servers = new Map<string, LanguageServer>();
  for (const server of env.supervisor.running()) if (searchable(server.config)) servers.set(`${server.config.id}\u0000${server.root}`, server);
  const problems: string[] = [];
  let started = 0;
  const skipped: string[] = [];
  for (const config of env.supervisor.servers.filter(searchable)) {
    for (const root of discoverRoots(env.cwd, config.rootMarkers)) {
      const key = `${config.id}\u0000${root}`;
      if (servers.has(key)) continue;
      // A search must not start a server for every package of a large monorepo.
      if (started >= MAX_STARTED) {
        skipped.push(`${config.name} for ${displayPath(root, env.cwd)}`);
        continue;
      }
      if (listSourceFiles(root, Object.keys(config.extensions), 1).files.length === 0) continue;
      const binary = findBinary({
        names: config.binaries,
        root,
        cwd: env.cwd,
        path: env.supervisor.env['PATH'],
        ...(config.bundled ? { bundled: config.bundled } : {}),
      });
      if (!binary.found) continue;
      try {
        started++;
        servers.set(key, await env.supervisor.serverForRoot(config, root, binary.found, signal));
      } catch (error) {
        rethrowUnexpected(error);
        problems.push(errorDetail(error));
      }
    }
  }
  if (skipped.length > 0) {
    problems.push(`${skipped.length} more project root(s) were not searched (${skipped.slice(0, 3).join(', ')}${skipped.length > 3 ? ', …' : ''}); open a file there with another lsp action first to include them.`);
  }
  return { servers: [...servers.values()], problems };
}

/**
 * Whether a workspace search asks a server: not an additional one (ESLint, Biome: diagnostics and code actions only)
 * nor one of single documents (JSON, YAML: `projectWide: false`), which have no workspace symbols to give.
 */
function searchable(config: ServerConfig): boolean {
  return config.role !== 'additional' && config.projectWide !== false;
}

/** Some servers (tsserver) search only the projects of open files: open one source file when none is. */
function anchorProject(server: LanguageServer): void {
  if (server.documents.all().length > 0) return;
  const first = listSourceFiles(server.root, Object.keys(server.config.extensions), 1).files[0];
  if (first) server.open(first);
}
