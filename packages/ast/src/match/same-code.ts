import type { Node } from 'web-tree-sitter';

/** The source text of a node (a slice of the file, not web-tree-sitter's chunked text callback). */
export function textOf(node: Node, src: string): string {
  return src.slice(node.startIndex, node.endIndex);
}

/** More than whitespace, a line continuation (`\` before a line break) counting as whitespace. */
const NON_SPACE = /[^\s\\]|\\(?!\r?\n)/;

/**
 * The text a node holds outside its children, where it is more than whitespace: the content of a string whose
 * grammar gives only its quotes as children (Go, Rust, C# and Dart strings in some grammar versions), joined
 * with NUL between gaps. `''` for ordinary nodes, whose children cover every token.
 */
export function ownText(node: Node, src: string, children: readonly Node[] = node.children): string {
  let out = '';
  let at = node.startIndex;
  let gaps = 0;
  const gap = (end: number): void => {
    if (end > at) {
      const text = src.slice(at, end);
      if (NON_SPACE.test(text)) out += (gaps++ ? '\u0000' : '') + text;
    }
  };
  for (const child of children) {
    gap(child.startIndex);
    if (child.endIndex > at) at = child.endIndex;
  }
  gap(node.endIndex);
  return out;
}

/**
 * Whether two nodes are the same code, the test a repeated metavariable applies: ast-grep's rule (same kinds and
 * children; as soon as one side has no named children, the texts), so `a+b` and `a + b` are the same code.
 * `withOwnText` also compares the text between children, so `"a"` and `"b"` differ in grammars whose string
 * node has only its quotes and an escape sequence as children.
 */
export function sameCode(a: Node, b: Node, src: string, withOwnText: boolean): boolean {
  // Pairs still to compare, on a stack rather than the call stack: captures may be nested 50,000 levels deep.
  const pending: [Node, Node][] = [[a, b]];
  for (let pair = pending.pop(); pair; pair = pending.pop()) {
    const [x, y] = pair;
    if (x.id === y.id && x.startIndex === y.startIndex) continue;
    if (x.namedChildCount === 0 || y.namedChildCount === 0) {
      if (textOf(x, src) !== textOf(y, src)) return false;
      continue;
    }
    if (x.typeId !== y.typeId) return false;
    const xc = x.children;
    const yc = y.children;
    if (xc.length !== yc.length) return false;
    if (withOwnText && ownText(x, src, xc) !== ownText(y, src, yc)) return false;
    for (let i = xc.length - 1; i >= 0; i--) pending.push([xc[i] as Node, yc[i] as Node]);
  }
  return true;
}
