import { capList, shownNote } from '@agent-tools/core/internal';
import { type DocumentSymbol, type Range, type SymbolInformation, SymbolKind, type WorkspaceSymbol } from 'vscode-languageserver-protocol';
import { fromUri, isInside } from '../util/paths.js';
import { pathLabel } from './outside-label.js';
import { countByFile, cutLines, type FileCount, pageOf } from './paging.js';

/** Maps a server's range in a file to LSP's lines (identity for most servers). */
export type RangeMapper = (path: string, range: Range) => Range;

const identity: RangeMapper = (_path, range) => range;

/** A symbol as programs receive it. */
export interface SymbolData {
  readonly name: string;
  readonly kind: string;
  readonly file: string;
  /** 1-based; absent when the server gave only the file. */
  readonly line?: number;
  readonly container?: string;
  /** Nesting depth in a document outline (0 at the top). */
  readonly depth?: number;
  /** Set for symbols outside the working directory (a library, the standard library). */
  readonly outside?: true;
}

const KIND_NAMES = new Map<number, string>(
  Object.entries(SymbolKind)
    .filter(([, value]) => typeof value === 'number')
    .map(([name, value]) => [value as number, name.replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase()]),
);

/** The name of a symbol kind (`function`, `enum member`). */
export function kindName(kind: number): string {
  return KIND_NAMES.get(kind) ?? 'symbol';
}

/** Flattens a document's symbols into an outline in source order, with depths. */
export function documentOutline(
  answer: Array<DocumentSymbol | SymbolInformation> | null | undefined,
  file: string,
  path: string,
  map: RangeMapper = identity,
): SymbolData[] {
  const out: SymbolData[] = [];
  const visit = (symbols: readonly DocumentSymbol[], depth: number, container?: string): void => {
    for (const symbol of [...symbols].sort((a, b) => a.selectionRange.start.line - b.selectionRange.start.line)) {
      out.push({
        name: symbol.name,
        kind: kindName(symbol.kind),
        file,
        line: map(path, symbol.selectionRange).start.line + 1,
        depth,
        ...(container ? { container } : {}),
      });
      if (symbol.children?.length) visit(symbol.children, depth + 1, symbol.name);
    }
  };
  const list = answer ?? [];
  if (list.length > 0 && 'selectionRange' in (list[0] as object)) visit(list as DocumentSymbol[], 0);
  else {
    for (const symbol of [...(list as SymbolInformation[])].sort((a, b) => a.location.range.start.line - b.location.range.start.line)) {
      out.push({
        name: symbol.name,
        kind: kindName(symbol.kind),
        file,
        line: map(path, symbol.location.range).start.line + 1,
        depth: 0,
        ...(symbol.containerName ? { container: symbol.containerName } : {}),
      });
    }
  }
  return out;
}

/** Normalizes workspace symbols to data with workspace-relative paths. */
export function workspaceSymbols(
  answer: Array<SymbolInformation | WorkspaceSymbol> | null | undefined,
  cwd: string,
  map: RangeMapper = identity,
): SymbolData[] {
  const out: SymbolData[] = [];
  for (const symbol of answer ?? []) {
    const path = fromUri(symbol.location.uri);
    if (!path) continue;
    const range = 'range' in symbol.location ? map(path, symbol.location.range) : undefined;
    out.push({
      name: symbol.name,
      kind: kindName(symbol.kind),
      file: pathLabel(path, cwd),
      ...(range ? { line: range.start.line + 1 } : {}),
      ...(symbol.containerName ? { container: symbol.containerName } : {}),
      ...(isInside(cwd, path) ? {} : { outside: true as const }),
    });
  }
  return out;
}

/** A document outline as indented lines, capped. */
export function renderOutline(symbols: readonly SymbolData[], max: number): { text: string; note: string; shown: readonly SymbolData[] } {
  const capped = capList(symbols, max);
  const lines = capped.items.map((s) => `${'  '.repeat((s.depth ?? 0) + 1)}${s.line}: ${s.kind} ${s.name}`);
  if (capped.note) lines.push(`(${capped.note})`);
  return { text: lines.join('\n'), note: capped.note, shown: capped.items };
}

/** Whether a symbol's name matches a query: contains it (ignoring case), or abbreviates it by camel-case words. */
export function nameMatches(name: string, query: string): boolean {
  const q = query.toLowerCase();
  if (name.toLowerCase().includes(q)) return true;
  return camelMatch(words(name), 0, q);
}

/** A name's words: `getHTTPResponse_code` → get, HTTP, Response, code. */
function words(name: string): string[] {
  return name.match(/[A-Z]+(?![a-z])|[A-Z]?[a-z]+|[0-9]+|[^\sA-Za-z0-9_$.:]+/g)?.map((w) => w.toLowerCase()) ?? [];
}

/** Whether the query is a run of prefixes of the words, in order (`gRF` for getReadFile). */
function camelMatch(list: readonly string[], from: number, query: string): boolean {
  if (query === '') return true;
  for (let i = from; i < list.length; i++) {
    const word = list[i] as string;
    for (let n = Math.min(word.length, query.length); n >= 1; n--) {
      if (word.startsWith(query.slice(0, n)) && camelMatch(list, i + 1, query.slice(n))) return true;
    }
  }
  return false;
}

/** Workspace symbols in the order answers list them: inside the working directory first, exact names first. */
export function sortWorkspaceSymbols(symbols: readonly SymbolData[], query: string): SymbolData[] {
  const exact = (s: SymbolData): number => (s.name === query ? 0 : s.name.toLowerCase() === query.toLowerCase() ? 1 : 2);
  return [...symbols].sort(
    (a, b) => Number(a.outside ?? false) - Number(b.outside ?? false) || exact(a) - exact(b) || a.file.localeCompare(b.file) || (a.line ?? 0) - (b.line ?? 0) || a.name.localeCompare(b.name),
  );
}

/**
 * Workspace symbols grouped by file, one page of `max` at `offset`: those inside the working directory first (exact
 * name matches before partial ones), then those outside it, marked as such, so a library's symbols never push the
 * project's own out of the list. A cut list names every file with its count and the call for the next page.
 */
export function renderWorkspaceSymbols(
  symbols: readonly SymbolData[],
  options: { readonly max: number; readonly query: string; readonly offset?: number; readonly nextCall?: (offset: number) => string },
): { text: string; note: string; shown: readonly SymbolData[]; offset: number; next: number | undefined; files: readonly FileCount[] } {
  const sorted = sortWorkspaceSymbols(symbols, options.query);
  const page = pageOf(sorted, options.offset ?? 0, options.max);
  const lines: string[] = [];
  let current: string | undefined;
  for (const s of page.items) {
    if (s.file !== current) {
      lines.push(s.outside ? `${s.file} (outside the working directory)` : s.file);
      current = s.file;
    }
    const where = s.line === undefined ? '' : `${s.line}: `;
    lines.push(`  ${where}${s.kind} ${s.name}${s.container ? ` (in ${s.container})` : ''}`);
  }
  const nextCall = options.nextCall ?? ((offset: number) => `with "offset": ${offset}`);
  const cut = cutLines(page, sorted, (s) => s.file, { noun: 'symbols', nextCall });
  if (cut) lines.push(cut);
  const note = shownNote(page.offset, page.items.length, page.total);
  return { text: lines.join('\n'), note, shown: page.items, offset: page.offset, next: page.next, files: countByFile(sorted, (s) => s.file) };
}
