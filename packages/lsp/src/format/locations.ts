import type { Location, LocationLink, Range } from 'vscode-languageserver-protocol';
import { capList } from '@agent-tools/core';
import { displayPath, fromUri, isInside } from '../util/paths.js';
import { showLine } from '../util/text.js';
import type { LineReader } from './line-reader.js';

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
  /** Set for files outside the working directory (libraries): their text is not read. */
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

/**
 * Renders locations grouped by file, workspace-relative, with 1-based `line:column` and the line's text,
 * capped at `max` with the cut stated. Files are ordered with `first` (the file asked about) at the top.
 */
export function renderLocations(
  locations: readonly RawLocation[],
  options: { readonly cwd: string; readonly reader: LineReader; readonly max: number; readonly first?: string },
): { text: string; data: LocationData[]; total: number; note: string } {
  const sorted = [...locations].sort(
    (a, b) =>
      rank(a.path, options) - rank(b.path, options) ||
      a.path.localeCompare(b.path) ||
      a.range.start.line - b.range.start.line ||
      a.range.start.character - b.range.start.character,
  );
  const capped = capList(sorted, options.max);
  const data: LocationData[] = [];
  const lines: string[] = [];
  let currentFile: string | undefined;
  for (const location of capped.items) {
    const file = displayPath(location.path, options.cwd);
    const outside = !isInside(options.cwd, location.path);
    const text = outside ? undefined : options.reader.line(location.path, location.range.start.line);
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
  if (capped.note) lines.push(`(${capped.note}; ask about a narrower symbol or file to see others)`);
  return { text: lines.join('\n'), data, total: capped.total, note: capped.note };
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
