import type { Node } from 'web-tree-sitter';
import { potentialKinds } from './kinds.js';
import type { CompiledRule, RuleNode } from './types.js';

/**
 * The `inside` rules that look all the way up (`stopBy: "end"`, no `field`) and can only match nodes of some kinds,
 * with those kinds: their ancestors can be found by position among the nodes of those kinds (see
 * {@link Containers}) instead of by walking from the root down to each candidate.
 * @internal
 */
export function rangedInsides(rule: CompiledRule): Map<RuleNode, ReadonlySet<number>> {
  const out = new Map<RuleNode, ReadonlySet<number>>();
  const seen = new Set<RuleNode>();
  const visit = (node: RuleNode): void => {
    if (seen.has(node)) return;
    seen.add(node);
    switch (node.type) {
      case 'inside':
      case 'has':
      case 'precedes':
      case 'follows': {
        if (node.type === 'inside' && node.stopBy === 'end' && node.field === undefined) {
          const kinds = potentialKinds(node.rule, rule.utils, new Set());
          if (kinds && kinds.size > 0) out.set(node, kinds);
        }
        visit(node.rule);
        if (typeof node.stopBy === 'object') visit(node.stopBy);
        return;
      }
      case 'all':
      case 'any':
        for (const r of node.rules) visit(r);
        return;
      case 'not':
        visit(node.rule);
        return;
      case 'nthChild':
        if (node.ofRule) visit(node.ofRule);
        return;
      default:
        return;
    }
  };
  visit(rule.root);
  for (const util of Object.values(rule.utils)) visit(util);
  for (const constraint of Object.values(rule.constraints)) visit(constraint);
  return out;
}

/**
 * The nodes of some kinds in one tree, in document order (pre-order, as `descendantsOfType` gives them), for finding
 * a node's ancestors of those kinds by position: a node whose range holds another's (and is not the same range) is
 * its ancestor. Each node's end is asked of wasm once, and each node's nearest holder among them is found in one pass
 * (on first use), so the ancestors of a node are a chain to follow: looking back through every earlier node for each
 * candidate cost the square of the file's size (50,000 nested arrays took half a minute).
 * @internal
 */
export class Containers {
  readonly #nodes: readonly Node[];
  readonly #kinds: readonly number[];
  #ends: Int32Array | undefined;
  /** Per node, the index of the nearest earlier node whose range holds its range, or -1. */
  #holder: Int32Array | undefined;

  constructor(nodes: readonly Node[], kinds: readonly number[]) {
    this.#nodes = nodes;
    this.#kinds = kinds;
  }

  /**
   * The ancestors of `node` whose kind is in `kinds`, nearest first, as the walk from the root down finds them; or
   * `undefined` when position cannot tell (a zero-width node, or one of these nodes spans exactly the same text,
   * which may be the node's parent or its child): the caller walks then. The list is made as it is read.
   */
  ancestorsOf(node: Node, kinds: ReadonlySet<number>): Iterable<Node> | undefined {
    const start = node.startIndex;
    const end = node.endIndex;
    if (start === end) return undefined;
    const { ends, holder } = this.#chains();
    // Pre-order: starts never decrease. The last node starting at or before the node's start...
    let lo = 0;
    let hi = this.#nodes.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if ((this.#nodes[mid] as Node).startIndex <= start) lo = mid + 1;
      else hi = mid;
    }
    // ...lies inside the nearest of them holding the node (every node between that one and the node in pre-order is
    // inside it), so that one is on its chain of holders. The node itself, when it is one of them, is passed by.
    let i = lo - 1;
    while (i >= 0 && ((ends[i] as number) < end || (this.#nodes[i] as Node).id === node.id)) i = holder[i] as number;
    if (i < 0) return [];
    // One of them spanning exactly the node's range is its parent or its child: position cannot tell which.
    if ((this.#nodes[i] as Node).startIndex === start && ends[i] === end) return undefined;
    return this.#chain(i, kinds);
  }

  *#chain(from: number, kinds: ReadonlySet<number>): Generator<Node> {
    const holder = this.#holder as Int32Array;
    for (let i = from; i >= 0; i = holder[i] as number) if (kinds.has(this.#kinds[i] as number)) yield this.#nodes[i] as Node;
  }

  /**
   * Every node's end, and its nearest earlier holder: in pre-order a node's holders are on a stack of the nodes
   * not yet ended (a node ending before another's end cannot hold anything after it in a tree).
   */
  #chains(): { ends: Int32Array; holder: Int32Array } {
    if (this.#ends && this.#holder) return { ends: this.#ends, holder: this.#holder };
    const count = this.#nodes.length;
    const ends = new Int32Array(count);
    const holder = new Int32Array(count);
    const open: number[] = [];
    for (let k = 0; k < count; k++) {
      const end = (this.#nodes[k] as Node).endIndex;
      ends[k] = end;
      while (open.length > 0 && (ends[open[open.length - 1] as number] as number) < end) open.pop();
      holder[k] = open.length > 0 ? (open[open.length - 1] as number) : -1;
      open.push(k);
    }
    this.#ends = ends;
    this.#holder = holder;
    return { ends, holder };
  }
}
