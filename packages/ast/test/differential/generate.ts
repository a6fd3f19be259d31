import { seededRandom } from '@agent-tools/test-utils';
import type { Node } from 'web-tree-sitter';
import type { TreeSitterRuntime } from '../../src/engine/runtime.js';
import type { LanguageSpec } from '../../src/languages.js';

/** A generated pattern: where it came from and how it was made. */
export interface Generated {
  readonly pattern: string;
  /** `file:line` of the node it was made from, and that node's kind. */
  readonly origin: string;
  readonly kind: string;
  /** The metavariables it binds by name (for rewrites). */
  readonly singles: readonly string[];
  readonly multis: readonly string[];
  /** The node it was made from: its file and offsets. */
  readonly from?: { readonly file: string; readonly start: number; readonly end: number };
  /** The code each metavariable replaced, in order (a repeated name replaces other code, unchecked). */
  readonly replaced?: readonly { readonly meta: string; readonly text: string; readonly kind: string; readonly start?: number; readonly end?: number }[];
}

const NAMES = ['A', 'B', 'C', 'D', 'E', 'F', 'G', 'H'];

/**
 * Patterns made from random syntax nodes of real files (fixed seed): a named node of modest size, some of whose
 * named descendants (children or grandchildren) are replaced by `$X`, `$_`, a repeat of an earlier `$X`, or a
 * run of siblings by `$$$X` / `$$$`. A node is left whole sometimes, so literal content is tested too.
 */
export async function generatePatterns(
  runtime: TreeSitterRuntime,
  spec: LanguageSpec,
  files: readonly { readonly name: string; readonly text: string }[],
  count: number,
  seed: number,
): Promise<Generated[]> {
  const rnd = seededRandom(seed);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(rnd() * items.length)] as T;
  const parser = await runtime.parser(spec);
  const pool: { file: string; text: string; node: Node }[] = [];
  const trees = [];
  for (const file of files) {
    const tree = runtime.parseWith(parser, file.text);
    if (!tree) continue;
    trees.push(tree);
    const visit = (node: Node): void => {
      const size = node.endIndex - node.startIndex;
      if (node.isNamed && !node.hasError && !node.isExtra && node.childCount > 0 && size >= 3 && size <= 300) {
        pool.push({ file: file.name, text: file.text, node });
      }
      for (const child of node.children) if (size > 3) visit(child);
    };
    visit(tree.rootNode);
  }
  const out: Generated[] = [];
  const seen = new Set<string>();
  try {
    for (let attempt = 0; out.length < count && attempt < count * 20 && pool.length > 0; attempt++) {
      const { file, text, node } = pick(pool);
      const made = makePattern(node, text, rnd, pick);
      if (!made || seen.has(made.pattern) || !/\S/.test(made.pattern)) continue;
      seen.add(made.pattern);
      out.push({ ...made, origin: `${file}:${node.startPosition.row + 1}`, kind: node.type, from: { file, start: node.startIndex, end: node.endIndex } });
    }
  } finally {
    for (const tree of trees) tree.delete();
  }
  return out;
}

function makePattern(
  node: Node,
  text: string,
  rnd: () => number,
  pick: <T>(items: readonly T[]) => T,
): Omit<Generated, 'origin' | 'kind' | 'from'> | undefined {
  // Choose replaceable spans: named children, sometimes grandchildren, never overlapping.
  const spans: { start: number; end: number; node: Node; siblings: Node[] }[] = [];
  const named = node.namedChildren.filter((c) => !c.isExtra);
  for (const child of named) {
    const r = rnd();
    if (r < 0.45) spans.push({ start: child.startIndex, end: child.endIndex, node: child, siblings: named });
    else if (r < 0.6) {
      const inner = child.namedChildren.filter((c) => !c.isExtra);
      if (inner.length) {
        const g = pick(inner);
        spans.push({ start: g.startIndex, end: g.endIndex, node: g, siblings: inner });
      }
    }
  }
  const bound: string[] = [];
  const multis: string[] = [];
  let next = 0;
  const edits: { start: number; end: number; text: string; kind: string }[] = [];
  let i = 0;
  while (i < spans.length) {
    const span = spans[i] as (typeof spans)[number];
    const r = rnd();
    if (r < 0.2) {
      // A run of consecutive named siblings.
      let j = i;
      const index = span.siblings.indexOf(span.node);
      while (j + 1 < spans.length && span.siblings[index + (j + 1 - i)] === spans[j + 1]?.node) j++;
      const last = spans[j] as (typeof spans)[number];
      const name = rnd() < 0.3 ? '' : (NAMES[next++ % NAMES.length] as string) + 'S';
      if (name) multis.push(name);
      edits.push({ start: span.start, end: last.end, text: `$$$${name}`, kind: span.node.type });
      i = j + 1;
      continue;
    }
    let meta: string;
    if (r < 0.3) meta = '$_';
    else if (r < 0.4 && bound.length) meta = `$${pick(bound)}`;
    else {
      const name = NAMES[next++ % NAMES.length] as string;
      bound.push(name);
      meta = `$${name}`;
    }
    edits.push({ start: span.start, end: span.end, text: meta, kind: span.node.type });
    i++;
  }
  let pattern = '';
  let at = node.startIndex;
  for (const edit of edits) {
    pattern += text.slice(at, edit.start) + edit.text;
    at = edit.end;
  }
  pattern += text.slice(at, node.endIndex);
  // Patterns are written flush left, as a model would write them: strip the first line's column from the rest.
  const column = node.startPosition.column;
  const lines = pattern.split('\n');
  pattern = lines.map((line, k) => (k === 0 ? line : line.replace(new RegExp(`^[ \\t]{0,${column}}`), ''))).join('\n').trimEnd();
  const replaced = edits.map((e) => ({ meta: e.text, text: text.slice(e.start, e.end), kind: e.kind, start: e.start, end: e.end }));
  return { pattern, singles: [...new Set(bound)], multis, replaced };
}
