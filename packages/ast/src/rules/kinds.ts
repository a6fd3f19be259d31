import { ERROR_KIND_ID } from '../pattern/pattern-node.js';
import type { RuleNode } from './types.js';

/**
 * ast-grep's potential kinds: `undefined` when any kind could match.
 * @internal
 */
export function potentialKinds(node: RuleNode, utils: Readonly<Record<string, RuleNode>>, seen: Set<string>): Set<number> | undefined {
  switch (node.type) {
    case 'pattern': {
      // ast-grep's: a metavariable root says nothing (unless a selector picked its kind); an error root with
      // children matches any kind.
      const root = node.pattern.root;
      if (root.type === 'meta') return node.rootKind === undefined ? undefined : new Set([node.rootKind]);
      if (root.type === 'inner' && root.kindId === ERROR_KIND_ID) return undefined;
      return new Set([root.kindId]);
    }
    case 'kind':
      return new Set([node.kindId]);
    case 'nthChild':
      return node.ofRule ? potentialKinds(node.ofRule, utils, seen) : undefined;
    case 'all': {
      let set: Set<number> | undefined;
      for (const rule of node.rules) {
        const kinds = potentialKinds(rule, utils, seen);
        if (!kinds) continue;
        set = set ? new Set([...set].filter((k) => kinds.has(k))) : kinds;
      }
      return set;
    }
    case 'any': {
      const set = new Set<number>();
      for (const rule of node.rules) {
        const kinds = potentialKinds(rule, utils, seen);
        if (!kinds) return undefined;
        for (const k of kinds) set.add(k);
      }
      return set;
    }
    case 'matches': {
      if (seen.has(node.util)) return undefined;
      const util = utils[node.util];
      return util ? potentialKinds(util, utils, new Set([...seen, node.util])) : undefined;
    }
    default:
      return undefined;
  }
}

