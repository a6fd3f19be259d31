import type { Node, Tree } from 'web-tree-sitter';
import { descendantsOf, type MatchRecord, type NodesOf, record } from '../match/find.js';
import { commentsIn } from '../match/regions.js';
import { RuleEvaluator } from './evaluate.js';
import type { CompiledRule } from './types.js';

/**
 * Every match of a rule in a tree, in document order, nested matches included (as `ast-grep scan` reports
 * them): each node of one of the rule's potential kinds is a candidate. `stop` is polled between candidates.
 * @internal
 */
export function findRuleMatches(
  tree: Tree,
  src: string,
  rule: CompiledRule,
  stop?: () => boolean,
  options: { readonly comments?: boolean; readonly nodesOf?: NodesOf } = {},
): MatchRecord[] {
  const evaluator = new RuleEvaluator(rule, src);
  const kinds = new Set(rule.kinds);
  const top = tree.rootNode;
  const candidates: Node[] = kinds.has(top.typeId) ? [top] : [];
  for (const node of (options.nodesOf ?? descendantsOf)(tree, rule.kindNames)) if (node && kinds.has(node.typeId)) candidates.push(node);
  const out: MatchRecord[] = [];
  for (let i = 0; i < candidates.length; i++) {
    if ((i & 255) === 255 && stop?.()) break;
    const node = candidates[i] as Node;
    if (!evaluator.matchRoot(node)) continue;
    const found = record(node, src, evaluator.bindings);
    out.push(options.comments ? { ...found, comments: commentsIn(node, src) } : found);
  }
  return out;
}
