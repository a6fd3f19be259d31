import type { FileCount } from '../format/paging.js';
import type { PathFilter } from './path-filter.js';

/** The paging part of a list's `structured` data: where the page starts, the next offset, every file's count. */
export function pageData(
  rendered: { readonly note: string; readonly offset: number; readonly next: number | undefined; readonly files: readonly FileCount[] },
  filter: PathFilter | undefined,
): Record<string, unknown> {
  const cut = rendered.note !== '';
  return {
    ...(cut ? { note: rendered.note } : {}),
    ...(rendered.offset > 0 ? { offset: rendered.offset } : {}),
    ...(rendered.next !== undefined ? { next: rendered.next } : {}),
    ...(filter ? { path: filter.label } : {}),
    ...(cut ? { files: rendered.files } : {}),
  };
}
