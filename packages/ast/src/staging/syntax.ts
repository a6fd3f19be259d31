import type { Node, Tree } from 'web-tree-sitter';

/** The 1-based lines of a tree's syntax errors (each outermost error or missing node once), in order. */
export function errorLines(tree: Tree): number[] {
  const lines: number[] = [];
  const visit = (node: Node): void => {
    if (node.isError || node.isMissing) {
      lines.push(node.startPosition.row + 1);
      return;
    }
    for (const child of node.children) if (child.hasError || child.isMissing || child.isError) visit(child);
  };
  if (tree.rootNode.hasError) visit(tree.rootNode);
  return lines;
}
