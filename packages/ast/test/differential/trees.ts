import type { Node, Tree } from 'web-tree-sitter';

/** One node of a syntax tree as ast-grep's `--debug-query=cst` prints it, field names left out. */
export interface TreeLine {
  readonly depth: number;
  /** The node's kind; `ERROR`, and `MISSING x` for a token the parser made up. */
  readonly kind: string;
  readonly startRow: number;
  readonly endRow: number;
  /** `depth kind (row,column)-(row,column)`, columns in UTF-8 bytes: equal lines are equal nodes. */
  readonly key: string;
}

const LINE = /^( *)(?:[a-z_]+: )?(.*?) ?\((\d+),(\d+)\)-\((\d+),(\d+)\)$/;

/** The nodes of a printed tree (ast-grep's `Debug CST:` output, or {@link printTree}'s), in order. */
export function readTree(printed: string): TreeLine[] {
  const out: TreeLine[] = [];
  for (const line of printed.split('\n')) {
    const m = LINE.exec(line);
    if (!m) continue;
    const depth = (m[1] ?? '').length / 2;
    const kind = m[2] ?? '';
    out.push({
      depth,
      kind,
      startRow: Number(m[3]),
      endRow: Number(m[5]),
      key: `${depth} ${kind} (${m[3]},${m[4]})-(${m[5]},${m[6]})`,
    });
  }
  return out;
}

/**
 * Our tree printed the way ast-grep prints its own (`kind (row,column)-(row,column)` indented by depth, columns
 * in UTF-8 bytes, missing tokens as `MISSING x`), so both go through {@link readTree} alike.
 */
export function printTree(tree: Tree, text: string): string {
  const lineStarts = [0];
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) lineStarts.push(i + 1);
  const point = (index: number, row: number): string => `(${row},${Buffer.byteLength(text.slice(lineStarts[row] ?? 0, index))})`;
  const lines: string[] = [];
  const walk = (node: Node, depth: number): void => {
    const kind = node.isError ? 'ERROR' : (node.tree.language.types[node.typeId] ?? node.type);
    lines.push(
      `${'  '.repeat(depth)}${node.isMissing ? 'MISSING ' : ''}${kind} ${point(node.startIndex, node.startPosition.row)}-${point(node.endIndex, node.endPosition.row)}`,
    );
    for (const child of node.children) walk(child, depth + 1);
  };
  walk(tree.rootNode, 0);
  return lines.join('\n');
}

/**
 * The rows where two trees of the same text differ: the row ranges of the innermost nodes one tree has and the
 * other has not (same depth, kind and range). A differing root proves nothing about a place in the file and is
 * left out; identical trees give none.
 */
export function differingRows(a: readonly TreeLine[], b: readonly TreeLine[]): { startRow: number; endRow: number }[] {
  const count = new Map<string, number>();
  for (const line of a) count.set(line.key, (count.get(line.key) ?? 0) + 1);
  for (const line of b) count.set(line.key, (count.get(line.key) ?? 0) - 1);
  const differing = [...a, ...b].filter((line) => line.depth > 0 && (count.get(line.key) ?? 0) !== 0);
  const inside = (inner: TreeLine, outer: TreeLine): boolean =>
    inner.depth > outer.depth && inner.startRow >= outer.startRow && inner.endRow <= outer.endRow;
  return differing
    .filter((line) => !differing.some((other) => inside(other, line)))
    .map((line) => ({ startRow: line.startRow, endRow: line.endRow }));
}
