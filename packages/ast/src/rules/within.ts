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
 * its ancestor. Each node's end is asked of wasm once, when first needed.
 * @internal
 */
export class Containers {
  readonly #nodes: readonly Node[];
  readonly #kinds: readonly number[];
  readonly #ends: number[];

  constructor(nodes: readonly Node[], kinds: readonly number[]) {
    this.#nodes = nodes;
    this.#kinds = kinds;
    this.#ends = new Array<number>(nodes.length).fill(-1);
  }

  /**
   * The ancestors of `node` whose kind is in `kinds`, nearest first, as the walk from the root down finds them; or
   * `undefined` when position cannot tell (a zero-width node, or one of these nodes spans exactly the same text,
   * which may be the node's parent or its child): the caller walks then.
   */
  ancestorsOf(node: Node, kinds: ReadonlySet<number>): Node[] | undefined {
    const start = node.startIndex;
    const end = node.endIndex;
    if (start === end) return undefined;
    // Pre-order: starts never decrease. The nodes starting at or before the node's start, last first.
    let lo = 0;
    let hi = this.#nodes.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if ((this.#nodes[mid] as Node).startIndex <= start) lo = mid + 1;
      else hi = mid;
    }
    const out: Node[] = [];
    for (let i = lo - 1; i >= 0; i--) {
      const candidate = this.#nodes[i] as Node;
      let candidateEnd = this.#ends[i] as number;
      if (candidateEnd < 0) {
        candidateEnd = candidate.endIndex;
        this.#ends[i] = candidateEnd;
      }
      if (candidateEnd < end || candidate.id === node.id) continue;
      if (candidate.startIndex === start && candidateEnd === end) return undefined;
      if (kinds.has(this.#kinds[i] as number)) out.push(candidate);
    }
    return out;
  }
}
