import type { Node, Tree } from 'web-tree-sitter';

/** The 1-based lines of a tree's syntax errors (each outermost error or missing node once), in order. */
export function errorLines(tree: Tree): number[] {
  const lines: number[] = [];
  if (!tree.rootNode.hasError) return lines;
  // A stack, not recursion: an error may sit 50,000 levels deep.
  const stack: Node[] = [tree.rootNode];
  for (let node = stack.pop(); node; node = stack.pop()) {
    if (node.isError || node.isMissing) {
      lines.push(node.startPosition.row + 1);
      continue;
    }
    const children = node.children;
    for (let i = children.length - 1; i >= 0; i--) {
      const child = children[i] as Node;
      if (child.hasError || child.isMissing || child.isError) stack.push(child);
    }
  }
  return lines;
}
