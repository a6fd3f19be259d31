import type { Node, Tree } from 'web-tree-sitter';

/** A comment inside a match: where it is and what it says (so a rewrite that drops it can say so). */
export interface CommentRecord {
  /** UTF-16 offsets into the file text. */
  readonly start: number;
  readonly end: number;
  /** 0-based row. */
  readonly row: number;
  readonly text: string;
}

const STRING_KIND = /string|heredoc/;
const STRING_PART = /content|escape|interpolation|start$|end$|fragment|substitution|delimiter|_begin|_end/;
const kindsByLanguage = new WeakMap<object, string[]>();

/** The grammar's node kinds that hold string literals (strings, raw strings, template strings, heredocs). */
function stringKinds(tree: Tree): string[] {
  const language = tree.language;
  let kinds = kindsByLanguage.get(language);
  if (!kinds) {
    kinds = [...new Set(language.types.filter((name): name is string => !!name && STRING_KIND.test(name) && !STRING_PART.test(name)))];
    kindsByLanguage.set(language, kinds);
  }
  return kinds;
}

/**
 * Offsets of the line starts that lie inside a multi-line string literal: a rewrite must leave those lines
 * exactly as they are (their indentation is part of the string's value), and they do not count when the file's
 * indentation unit is measured.
 * @internal Left out of the published types: they would pull in web-tree-sitter's Emscripten globals.
 */
export function stringLineStarts(tree: Tree, src: string): number[] {
  const out: number[] = [];
  const kinds = stringKinds(tree);
  if (kinds.length === 0) return out;
  for (const node of tree.rootNode.descendantsOfType(kinds)) {
    if (!node || node.startPosition.row === node.endPosition.row) continue;
    for (let i = src.indexOf('\n', node.startIndex); i >= 0 && i < node.endIndex - 1; i = src.indexOf('\n', i + 1)) out.push(i + 1);
  }
  return out.sort((a, b) => a - b);
}

/**
 * The comments (extra named nodes) inside a node, in document order.
 * @internal Left out of the published types: they would pull in web-tree-sitter's Emscripten globals.
 */
export function commentsIn(node: Node, src: string): CommentRecord[] {
  const out: CommentRecord[] = [];
  // A stack, not recursion: a match may be nested 50,000 levels deep (the call stack holds about 10,000 frames).
  const stack: Node[] = [...node.children].reverse();
  for (let n = stack.pop(); n; n = stack.pop()) {
    if (n.endIndex <= n.startIndex) continue;
    if (n.isExtra && n.isNamed) {
      out.push({ start: n.startIndex, end: n.endIndex, row: n.startPosition.row, text: src.slice(n.startIndex, n.endIndex) });
      continue;
    }
    const children = n.children;
    for (let i = children.length - 1; i >= 0; i--) stack.push(children[i] as Node);
  }
  return out;
}
