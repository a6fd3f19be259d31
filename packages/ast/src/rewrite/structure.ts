import type { Node, Tree } from 'web-tree-sitter';
import type { Placed } from './render.js';

/** Node kinds a capture may be pasted into as text: the template meant the text, not a node. */
const TEXTUAL = /string|comment|heredoc|interpolation|fragment|^content$/;

/** The smallest node holding [start, end). */
function container(root: Node, start: number, end: number): Node | undefined {
  let node: Node | null = root.descendantForIndex(start, Math.max(start, end - 1));
  while (node && (node.startIndex > start || node.endIndex < end)) node = node.parent;
  return node ?? undefined;
}

/** Whether one node spans exactly [start, end). */
export function isUnit(root: Node, start: number, end: number): boolean {
  const node = container(root, start, end);
  return node !== undefined && node.startIndex === start && node.endIndex === end;
}

/**
 * Whether [start, end) is one node or a run of whole sibling nodes (a template of two statements): no node of the
 * tree straddles either end.
 */
export function isWhole(root: Node, start: number, end: number): boolean {
  const node = container(root, start, end);
  if (!node) return false;
  // A replacement that only parses by error recovery is not the template's shape.
  if (node.startIndex === start && node.endIndex === end) return !node.hasError && !node.isError;
  const inside = node.children.filter((c) => c.endIndex > start && c.startIndex < end);
  const first = inside[0];
  const last = inside[inside.length - 1];
  if (!first || !last || first.startIndex !== start || last.endIndex !== end || node.isError) return false;
  return inside.every((c) => c.startIndex >= start && c.endIndex <= end && !c.hasError && !c.isError);
}

/** Whether [start, end) is one parenthesized node (the parentheses a rewrite added read as such). */
export function isParenthesized(root: Node, start: number, end: number): boolean {
  const node = container(root, start, end);
  return node !== undefined && node.startIndex === start && node.endIndex === end && /parenthesized/.test(node.type) && !node.hasError;
}

/** A kind the template is, or the parentheses a rewrite put around it. */
function oneOf(kinds: ReadonlySet<string>, type: string): boolean {
  return kinds.has(type) || /parenthesized/.test(type);
}

/** How one placed replacement re-parses. */
export interface StructureCheck {
  /** The replacement is one node or whole sibling nodes. */
  readonly whole: boolean;
  /** Single captures that are no longer one node each (an operand that bound to an operator of the template). */
  readonly split: readonly string[];
}

/**
 * Checks a replacement placed at `start` in a re-parsed file: it is whole (one node, or whole sibling nodes), and
 * each single capture it pasted as code is still one node. Captures pasted as text (inside a string, glued to an
 * identifier) are not checked.
 */
export function checkStructure(tree: Tree, start: number, length: number, placed: readonly Placed[], oneNode?: ReadonlySet<string>): StructureCheck {
  const root = tree.rootNode;
  // A template that is one node must stay one node of its kind: as a run of siblings it bound otherwise (Elixir's
  // `+\ny` after `x` is no longer the unary `+y` but `x + y`), and as another kind it is other code (HCL's
  // `"bar" = foo` is no attribute but an object element inside an error).
  const whole =
    length === 0 ||
    (oneNode
      ? isUnit(root, start, start + length) && isWhole(root, start, start + length) && oneOf(oneNode, container(root, start, start + length)?.type ?? '')
      : isWhole(root, start, start + length));
  const split: string[] = [];
  for (const p of placed) {
    if (p.glued || p.end <= p.start) continue;
    const from = start + p.start;
    const to = start + p.end;
    const holder = container(root, from, to);
    if (!holder || TEXTUAL.test(holder.type)) continue;
    if (!isUnit(root, from, to)) split.push(p.name);
  }
  return { whole, split };
}
