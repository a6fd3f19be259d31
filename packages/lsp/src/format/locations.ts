import { shownNote } from '@agent-tools/core/internal';
import type { Location, LocationLink, Range } from 'vscode-languageserver-protocol';
import { fromUri, isInside } from '../util/paths.js';
import { showLine } from '../util/text.js';
import type { LineReader } from './line-reader.js';
import { pathLabel } from './outside-label.js';
import { countByFile, cutLines, type FileCount, pageOf } from './paging.js';

/** A location of a result, absolute and 0-based as LSP has it. */
export interface RawLocation {
  readonly path: string;
  readonly range: Range;
  /** What the location is about, shown after its line (`in main` for a call site). */
  readonly note?: string;
}

/** A location as programs receive it: workspace-relative path, 1-based line and column, the line's text. */
export interface LocationData {
  readonly file: string;
  readonly line: number;
  readonly column: number;
  readonly text?: string;
  /** Set for files outside the working directory (libraries); `file` is then a label (`typescript lib/lib.dom.d.ts`). */
  readonly outside?: true;
  /** What the location is about (the caller of a call site, a callee's name). */
  readonly note?: string;
}

/** Normalizes a definition-like answer (`Location`, `Location[]`, `LocationLink[]`, null) to raw locations. */
export function toRawLocations(answer: Location | Location[] | LocationLink[] | null | undefined): RawLocation[] {
  if (!answer) return [];
  const list = Array.isArray(answer) ? answer : [answer];
  const out: RawLocation[] = [];
  for (const item of list as Array<Location | LocationLink>) {
    const uri = 'targetUri' in item ? item.targetUri : item.uri;
    const range = 'targetUri' in item ? (item.targetSelectionRange ?? item.targetRange) : item.range;
    const path = fromUri(uri);
    if (path && range) out.push({ path, range });
  }
  return dedupe(out);
}

/** How {@link renderLocations} pages a list. */
export interface LocationRenderOptions {
  readonly cwd: string;
  readonly reader: LineReader;
  readonly max: number;
  /** The file asked about: its locations come first. */
  readonly first?: string;
  /** Locations skipped before the first shown (a later page). */
  readonly offset?: number;
  /** What the list is of, for the cut line (`references`). */
  readonly noun?: string;
  /** The exact call that shows the page at an offset, for the cut line. */
  readonly nextCall?: (offset: number) => string;
}

/** A rendered page of locations. */
export interface RenderedLocations {
  readonly text: string;
  /** The locations of this page. */
  readonly data: LocationData[];
  readonly total: number;
  /** `50 of 212 shown` (or `51-100 of 212 shown` on a later page); '' when the page is the whole list. */
  readonly note: string;
  readonly offset: number;
  readonly next: number | undefined;
  /** Every file of the whole list with its count, in the list's order. */
  readonly files: readonly FileCount[];
}

/**
 * Renders locations grouped by file, workspace-relative, with 1-based `line:column` and the line's text, one
 * page of `max` at `offset` in a stable order (the file asked about first, then by path and position). A cut list
 * names every file with its count and says the exact call for the next page.
 */
export function renderLocations(locations: readonly RawLocation[], options: LocationRenderOptions): RenderedLocations {
  const sorted = sortLocations(locations, options);
  const page = pageOf(sorted, options.offset ?? 0, options.max);
  const data: LocationData[] = [];
  const lines: string[] = [];
  let currentFile: string | undefined;
  for (const location of page.items) {
    const file = pathLabel(location.path, options.cwd);
    const outside = !isInside(options.cwd, location.path);
    const text = outside ? options.reader.locationLine(location.path, location.range.start.line) : options.reader.line(location.path, location.range.start.line);
    const line = location.range.start.line + 1;
    const column = location.range.start.character + 1;
    data.push({
      file,
      line,
      column,
      ...(text === undefined ? {} : { text }),
      ...(outside ? { outside: true as const } : {}),
      ...(location.note ? { note: location.note } : {}),
    });
    if (file !== currentFile) {
      lines.push(outside ? `${file} (outside the working directory)` : file);
      currentFile = file;
    }
    lines.push(`  ${line}:${column}${text === undefined ? '' : `  ${showLine(text)}`}${location.note ? `  (${location.note})` : ''}`);
  }
  const fileOf = (l: RawLocation): string => pathLabel(l.path, options.cwd);
  const nextCall = options.nextCall ?? ((offset: number) => `with "offset": ${offset}`);
  const cut = cutLines(page, sorted, fileOf, { noun: options.noun ?? 'locations', nextCall });
  if (cut) lines.push(cut);
  const note = shownNote(page.offset, page.items.length, page.total);
  return { text: lines.join('\n'), data, total: page.total, note, offset: page.offset, next: page.next, files: countByFile(sorted, fileOf) };
}

/** Locations in the order answers list them: the file asked about, then the working directory's, then others. */
export function sortLocations(locations: readonly RawLocation[], options: { readonly cwd: string; readonly first?: string }): RawLocation[] {
  return [...locations].sort(
    (a, b) =>
      rank(a.path, options) - rank(b.path, options) ||
      a.path.localeCompare(b.path) ||
      a.range.start.line - b.range.start.line ||
      a.range.start.character - b.range.start.character,
  );
}

/** How many distinct files the locations span. */
export function fileCount(locations: readonly RawLocation[]): number {
  return new Set(locations.map((l) => l.path)).size;
}

function rank(path: string, options: { readonly cwd: string; readonly first?: string }): number {
  if (path === options.first) return 0;
  return isInside(options.cwd, path) ? 1 : 2;
}

function dedupe(locations: RawLocation[]): RawLocation[] {
  const seen = new Set<string>();
  return locations.filter((l) => {
    const key = `${l.path}:${l.range.start.line}:${l.range.start.character}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
