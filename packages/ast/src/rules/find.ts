import type { Node, Tree } from 'web-tree-sitter';
import { anchoredCandidates, descendantsOf, type MatchRecord, type NodesOf, onlyKindNamed, record } from '../match/find.js';
import type { UnnamedGroup } from '../match/matcher.js';
import { commentsIn } from '../match/regions.js';
import { MatchSink } from '../match/sink.js';
import { unnamedParts } from '../match/unnamed.js';
import { RuleEvaluator } from './evaluate.js';
import type { CompiledRule } from './types.js';
import { Containers, rangedInsides } from './within.js';

/**
 * Every match of a rule in a tree, in document order, nested matches included (as `ast-grep scan` reports
 * them): each node of one of the rule's potential kinds is a candidate. `stop` is polled between candidates; `sink`
 * decides which matches get a record (all by default) and counts them all.
 * @internal
 */
export function findRuleMatches(
  tree: Tree,
  src: string,
  rule: CompiledRule,
  stop?: () => boolean,
  options: { readonly comments?: boolean; readonly nodesOf?: NodesOf; readonly sink?: MatchSink<MatchRecord> } = {},
): MatchRecord[] {
  const forEdit = options.comments === true;
  const evaluator = new RuleEvaluator(rule, src, { trace: forEdit });
  const kinds = new Set(rule.kinds);
  const top = tree.rootNode;
  // Where the rule requires a pattern with an anchor that is rare in the text, only the nodes around the anchor's
  // occurrences can match (both lists are in document order, outer before inner).
  const anchored = rule.anchor ? anchoredCandidates(top, src, rule.anchor) : undefined;
  // Otherwise the candidates come from a walk, which includes the tree's root (`descendantsOfType` starts at the node
  // it is called on): adding the root first made a rule of the root's kind match it twice.
  const candidates: Node[] = anchored ? anchored.filter((node) => kinds.has(node.typeId)) : [];
  const nodesOf = options.nodesOf ?? descendantsOf;
  // Where the candidates come from a walk over the tree, the same walk finds the nodes an `inside` looking all the
  // way up can match, so their ancestors are found by position (a walk from the root down per candidate cost as much
  // as the rest of the evaluation).
  const insides = anchored ? undefined : rangedInsides(rule);
  const types = top.tree.language.types;
  const containerKinds = new Set<number>();
  for (const set of insides?.values() ?? []) for (const kind of set) containerKinds.add(kind);
  const kindOf: number[] = [];
  if (insides && containerKinds.size > 0) {
    const names = new Set(rule.kindNames);
    for (const kind of containerKinds) if (types[kind]) names.add(types[kind] as string);
    const containers: Node[] = [];
    const containerTypes: number[] = [];
    for (const node of nodesOf(tree, [...names])) {
      if (!node) continue;
      const kind = node.typeId;
      if (kinds.has(kind)) {
        candidates.push(node);
        kindOf[candidates.length - 1] = kind;
      }
      if (containerKinds.has(kind)) {
        containers.push(node);
        containerTypes.push(kind);
      }
    }
    evaluator.lookInside(new Containers(containers, containerTypes), insides);
  } else if (!anchored) {
    // Nodes found by the name of the rule's one kind are of that kind, unless the grammar gives the name to several.
    const only = kinds.size === 1 ? onlyKindNamed(types, rule.kindNames) : undefined;
    const known = only !== undefined && kinds.has(only) ? only : undefined;
    for (const node of nodesOf(tree, rule.kindNames)) {
      if (!node || (known === undefined && !kinds.has(node.typeId))) continue;
      candidates.push(node);
      if (known !== undefined) kindOf[candidates.length - 1] = known;
    }
  }
  const sink = options.sink ?? new MatchSink<MatchRecord>();
  for (let i = 0; i < candidates.length; i++) {
    if ((i & 15) === 15 && stop?.()) break;
    const node = candidates[i] as Node;
    if (!evaluator.matchRoot(node, kindOf[i]) || !sink.wants(node.startIndex, node.endIndex)) continue;
    const found = record(node, src, evaluator.bindings);
    if (!forEdit) {
      sink.add(found);
      continue;
    }
    // As for a pattern: the code after the part the rule's patterns name is kept, unnamed code inside is not
    // deleted. A rule without a pattern on the node itself (`kind`, `regex`, relational keys) names it whole.
    const parts = unnamedParts(node, unnamedByAll(evaluator.bindings.unnamed, evaluator.bindings.traced), src);
    sink.add({
      ...found,
      comments: commentsIn(node, src),
      ...(parts.tail !== undefined ? { tail: parts.tail } : {}),
      ...(parts.inside.length ? { unnamed: parts.inside } : {}),
    });
  }
  return sink.records;
}

/**
 * The groups every pattern applied to the node left unnamed: where a rule applies two patterns to one node (`all`),
 * what one of them names is named. The first pattern's groups, less what another names (one group per code).
 */
function unnamedByAll(groups: readonly UnnamedGroup[], matched: readonly number[]): UnnamedGroup[] {
  const patterns = [...new Set(matched)];
  if (patterns.length <= 1) return [...groups];
  const unnamedBy = (by: number): Set<number> => new Set(groups.filter((g) => g.by === by).flatMap((g) => g.nodes.map((n) => n.id)));
  const others = patterns.slice(1).map(unnamedBy);
  return groups.filter((g) => g.by === patterns[0] && others.every((ids) => g.nodes.every((n) => ids.has(n.id))));
}
