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
 * @internal
 */
export function printTree(
  root: Node,
  options: { readonly tokens?: boolean; readonly maxLines: number; readonly within?: { readonly first: number; readonly last: number } },
): PrintedTree {
  const out: PrintedTree = { lines: [], omitted: 0 };
  const { within } = options;
  // A stack, not recursion: a file may nest 50,000 levels deep (the call stack holds about 10,000 frames).
  const stack: { node: Node; field: string | null; depth: number }[] = [{ node: root, field: null, depth: 0 }];
  for (let item = stack.pop(); item; item = stack.pop()) {
    const { node, field, depth } = item;
    if (within && (node.endPosition.row < within.first || node.startPosition.row > within.last)) continue;
    const wanted = node.isNamed || node.isError || node.isMissing || options.tokens === true;
    if (wanted) {
      if (out.lines.length >= options.maxLines) {
        out.omitted++;
      } else {
        const label = node.isMissing ? `MISSING ${node.type}` : node.isError ? 'ERROR' : node.isNamed ? node.type : shown(node.type);
        const leaf = node.childCount === 0 && node.isNamed ? ` ${shown(node.text)}` : '';
        const partly = within && (node.startPosition.row < within.first || node.endPosition.row > within.last) ? ' (partly)' : '';
        const extra = node.isExtra ? ' (extra)' : '';
        out.lines.push(`${indent(depth)}${field ? `${field}: ` : ''}${label}${leaf} ${span(node)}${partly}${extra}`);
      }
    }
    for (let i = node.childCount - 1; i >= 0; i--) {
      const child = node.child(i);
      if (child) stack.push({ node: child, field: node.fieldNameForChild(i), depth: wanted ? depth + 1 : depth });
    }
  }
  return out;
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
