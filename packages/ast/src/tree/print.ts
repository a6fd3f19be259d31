import type { Node } from 'web-tree-sitter';
import type { PatternNode } from '../pattern/pattern-node.js';

/** Lines of a printed tree, and whether the cap cut it. */
export interface PrintedTree {
  readonly lines: string[];
  /** Nodes left out because the cap was reached. */
  omitted: number;
}

/** A text on one line, cut to `max` characters. */
function shown(text: string, max = 40): string {
  const line = JSON.stringify(text);
  return line.length > max ? `${line.slice(0, max - 2)}…"` : line;
}

/** 1-based line:column ranges (columns 1-based, UTF-16). */
function span(node: Node): string {
  const s = node.startPosition;
  const e = node.endPosition;
  return `${s.row + 1}:${s.column + 1}-${e.row + 1}:${e.column + 1}`;
}

/**
 * A syntax tree as indented lines: `field: kind` with the position, leaves with their text, ERROR and MISSING
 * marked. Only named nodes unless `tokens` (then unnamed tokens too, as their quoted text). `within` (0-based rows,
 * inclusive) keeps the nodes that overlap those rows; a node that reaches outside them is marked `(partly)`.
 * A cursor walks the tree: no recursion (a file may nest 50,000 levels deep) and no node object per node, only per
 * line printed (a file of a million statements has two million nodes to count).
 * @internal
 */
export function printTree(
  root: Node,
  options: { readonly tokens?: boolean; readonly maxLines: number; readonly within?: { readonly first: number; readonly last: number } },
): PrintedTree {
  const out: PrintedTree = { lines: [], omitted: 0 };
  const { within } = options;
  const cursor = root.walk();
  // The shown depth of each node on the cursor's path above the current one.
  const depths: number[] = [];
  let depth = 0;
  try {
    for (;;) {
      const start = cursor.startPosition.row;
      // In pre-order every node after one that starts past the rows starts past them too.
      if (within && start > within.last) return out;
      let down = false;
      if (!within || cursor.endPosition.row >= within.first) {
        const type = cursor.nodeType;
        const missing = cursor.nodeIsMissing;
        const error = type === 'ERROR';
        const named = cursor.nodeIsNamed;
        const wanted = named || error || missing || options.tokens === true;
        if (wanted) {
          if (out.lines.length >= options.maxLines) out.omitted++;
          else {
            const node = cursor.currentNode;
            const field = cursor.currentFieldName;
            const label = missing ? `MISSING ${type}` : error ? 'ERROR' : named ? type : shown(type);
            const leaf = named && node.childCount === 0 ? ` ${shown(node.text)}` : '';
            const partly = within && (start < within.first || node.endPosition.row > within.last) ? ' (partly)' : '';
            const extra = node.isExtra ? ' (extra)' : '';
            out.lines.push(`${indent(depth)}${field ? `${field}: ` : ''}${label}${leaf} ${span(node)}${partly}${extra}`);
          }
        }
        // Children before the rows are passed over, not visited one by one.
        down = within && start < within.first ? cursor.gotoFirstChildForPosition({ row: within.first, column: 0 }) : cursor.gotoFirstChild();
        if (down) {
          depths.push(depth);
          if (wanted) depth++;
          continue;
        }
      }
      for (;;) {
        if (depths.length === 0) return out;
        if (cursor.gotoNextSibling()) break;
        cursor.gotoParent();
        depth = depths.pop() as number;
      }
    }
  } finally {
    cursor.delete();
  }
}

/** Levels of a tree indented by spaces; deeper ones say their depth, so a line stays short however deep the node. */
const MAX_INDENT = 40;

function indent(depth: number): string {
  return depth <= MAX_INDENT ? '  '.repeat(depth) : `${'  '.repeat(MAX_INDENT)}(depth ${depth}) `;
}

/** A compiled pattern as indented lines: what each node must match. */
export function printPattern(root: PatternNode, maxLines: number): PrintedTree {
  const out: PrintedTree = { lines: [], omitted: 0 };
  const visit = (node: PatternNode, depth: number): void => {
    if (out.lines.length >= maxLines) {
      out.omitted++;
      return;
    }
    const pad = indent(depth);
    if (node.type === 'meta') {
      const m = node.meta;
      const what =
        m.kind === 'multi'
          ? `$$$${m.name ?? ''}: zero or more sibling nodes`
          : `$${m.named ? '' : '$'}${m.name ?? '_'}: one ${m.named ? 'named ' : ''}node${m.name ? '' : ', not bound'}`;
      out.lines.push(`${pad}${what}`);
      return;
    }
    if (node.type === 'leaf') {
      out.lines.push(`${pad}${node.named ? `${node.kind} ${shown(node.text)} (same text)` : `${shown(node.text)} (token)`}`);
      return;
    }
    out.lines.push(`${pad}${node.kind}`);
    for (const child of node.children) visit(child, depth + 1);
  };
  visit(root, 0);
  return out;
}
