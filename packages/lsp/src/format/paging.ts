import { plural } from '@agent-tools/core/internal';

/** One page of a list in its stable order, and what a model needs to read the rest. */
export interface Page<T> {
  readonly items: readonly T[];
  /** Items in the whole list (after the `path` filter). */
  readonly total: number;
  /** Items skipped before the first shown. */
  readonly offset: number;
  /** The offset of the next page, when there is one. */
  readonly next: number | undefined;
}

/** Takes the page of `max` items at `offset` of an already ordered list. */
export function pageOf<T>(items: readonly T[], offset: number, max: number): Page<T> {
  const start = Math.max(0, offset);
  const shown = items.slice(start, start + max);
  const next = start + shown.length < items.length ? start + shown.length : undefined;
  return { items: shown, total: items.length, offset: start, next };
}

/** How many items of the whole list fall in one file. */
export interface FileCount {
  readonly file: string;
  readonly count: number;
}

/** Files with their counts, in order of first appearance in the list. */
export function countByFile<T>(items: readonly T[], fileOf: (item: T) => string): FileCount[] {
  const counts = new Map<string, number>();
  for (const item of items) counts.set(fileOf(item), (counts.get(fileOf(item)) ?? 0) + 1);
  return [...counts].map(([file, count]) => ({ file, count }));
}

/** The most files named in a cut line; a longer list is summed up, and `path` narrows it. */
const MAX_FILES_NAMED = 300;

/**
 * The lines that end a cut list: how much is shown, every file with what it has outside this page (so no file
 * goes unnamed), and the exact call that shows the next page. '' when the page is the whole list.
 */
export function cutLines<T>(
  page: Page<T>,
  all: readonly T[],
  fileOf: (item: T) => string,
  options: { readonly noun: string; readonly nextCall: (offset: number) => string },
): string {
  if (page.items.length === page.total && page.offset === 0) return '';
  const lines: string[] = [];
  if (page.items.length === 0) {
    lines.push(`(none shown: offset ${page.offset} is past the last of ${page.total} ${options.noun}; call again with "offset": 0.)`);
    return lines.join('\n');
  }
  const first = page.offset + 1;
  const last = page.offset + page.items.length;
  lines.push(`(${options.noun} ${first}-${last} of ${page.total} shown, in the order above)`);
  const shown = new Map(countByFile(page.items, fileOf).map((c) => [c.file, c.count]));
  const rest = countByFile(all, fileOf)
    .map(({ file, count }) => ({ file, count: count - (shown.get(file) ?? 0), of: count }))
    .filter((c) => c.count > 0);
  if (rest.length > 0) {
    const named = rest.slice(0, MAX_FILES_NAMED).map((c) => (c.count === c.of ? `${c.file} (${c.count})` : `${c.file} (${c.count} more of ${c.of})`));
    const more = rest.length > MAX_FILES_NAMED ? `; and ${plural(rest.length - MAX_FILES_NAMED, 'more file')}, narrow with "path"` : '';
    lines.push(`Not shown here, by file (${plural(rest.length, 'file')}): ${named.join(', ')}${more}.`);
  }
  if (page.next !== undefined) {
    lines.push(`Next page: lsp ${options.nextCall(page.next)} — or add "path" (a file or folder) to list one part.`);
  } else {
    lines.push(`This is the last page; earlier ones: lsp ${options.nextCall(0)}.`);
  }
  return lines.join('\n');
}

/**
 * The arguments of a call as the model would write them, with `offset` set: what a cut line tells it to call
 * next. Only arguments the action takes are kept, in a fixed order.
 */
export function callWith(params: Readonly<Record<string, unknown>>, offset: number): string {
  const keys = ['action', 'file', 'line', 'symbol', 'occurrence', 'query', 'path', 'outside'];
  const out: Record<string, unknown> = {};
  for (const key of keys) if (params[key] !== undefined && params[key] !== '') out[key] = params[key];
  out['offset'] = offset;
  return JSON.stringify(out);
}

/**
 * What a page's first line adds when the list is cut, so an answer that is not the whole list says so first:
 * ` (50 of 393 shown; next page: "offset": 50)`; '' for a whole list.
 */
export function cutInHead(page: { readonly note: string; readonly next: number | undefined }): string {
  if (!page.note) return '';
  return ` (${page.note}; ${page.next === undefined ? 'the last page' : `next page: "offset": ${page.next}`})`;
}
