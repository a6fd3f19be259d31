import type { Node } from 'web-tree-sitter';
import type { UnnamedCode } from './code-span.js';
import type { UnnamedGroup } from './matcher.js';

/** What of a match the pattern does not name, split by what a rewrite can do with it. */
export interface UnnamedParts {
  /**
   * Where the named part of the match ends when code after it is unnamed (an `else:` after the `except` the
   * pattern names): a rewrite replaces the match up to here and keeps the rest as it is.
   */
  readonly tail?: number;
  /** Unnamed code in the middle of the match (not comments): a rewrite of the whole match would delete it. */
  readonly inside: readonly UnnamedCode[];
}

/**
 * Splits the unnamed candidates of a match into its unnamed end and the unnamed code inside. The end is a chain:
 * the children after the root's last matched child, then those after that child's last matched child, and so
 * on, each group ending where the one outside it begins (only whitespace between).
 * @internal Left out of the published types: they would pull in web-tree-sitter's Emscripten globals.
 */
export function unnamedParts(match: Node, groups: readonly UnnamedGroup[], src: string): UnnamedParts {
  const trailing = groups.filter((g) => g.kind === 'trailing');
  const chained = new Set<UnnamedGroup>();
  let pos = match.endIndex;
  let tail: number | undefined;
  for (;;) {
    const group = trailing.find((g) => !chained.has(g) && (g.nodes[g.nodes.length - 1] as Node).endIndex === pos);
    if (!group) break;
    chained.add(group);
    pos = (group.nodes[0] as Node).startIndex;
    while (pos > match.startIndex && /\s/.test(src[pos - 1] as string)) pos--;
    tail = pos;
  }
  const inside: UnnamedCode[] = [];
  for (const group of groups) {
    if (chained.has(group)) continue;
    const code = group.nodes.filter((n) => !n.isExtra);
    const first = code[0];
    const last = code[code.length - 1];
    if (!first || !last) continue;
    inside.push({ start: first.startIndex, end: last.endIndex, row: first.startPosition.row, text: src.slice(first.startIndex, last.endIndex) });
  }
  inside.sort((a, b) => a.start - b.start);
  return { ...(tail !== undefined && tail > match.startIndex ? { tail } : {}), inside };
}
