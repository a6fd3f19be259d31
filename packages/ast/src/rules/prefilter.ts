import type { CompiledPattern, PatternNode } from '../pattern/pattern-node.js';
import type { CompiledRule, RuleNode } from './types.js';

type PatternRule = Extract<RuleNode, { type: 'pattern' }>;

/**
 * Texts a file must contain for the rule to match anywhere in it: the literals of every pattern the rule requires,
 * as far as the pattern's strictness compares them. `smart` and `cst` match every token of the pattern; `ast` and
 * `relaxed` may skip its unnamed tokens (so `$A === $B` finds `a == b`: its operator is no literal); `signature`
 * matches leaves by kind alone (`foo(1)` finds `bar(2)`: nothing is).
 * @internal
 */
export function requiredLiterals(node: RuleNode, utils: Readonly<Record<string, RuleNode>>, seen: Set<string>): Set<string> {
  switch (node.type) {
    case 'pattern':
      return new Set(patternLiterals(node));
    case 'all': {
      const out = new Set<string>();
      for (const rule of node.rules) for (const literal of requiredLiterals(rule, utils, seen)) out.add(literal);
      return out;
    }
    case 'inside':
    case 'has':
    case 'precedes':
    case 'follows':
      return requiredLiterals(node.rule, utils, seen);
    case 'matches': {
      const util = utils[node.util];
      if (!util || seen.has(node.util)) return new Set();
      return requiredLiterals(util, utils, new Set([...seen, node.util]));
    }
    default:
      return new Set();
  }
}

function patternLiterals(node: PatternRule): readonly string[] {
  switch (node.strictness) {
    case 'signature':
      return [];
    case 'ast':
    case 'relaxed': {
      const named = new Set<string>();
      namedLeafTexts(node.pattern.root, named);
      return node.pattern.literals.filter((literal) => named.has(literal));
    }
    default:
      return node.pattern.literals;
  }
}

function namedLeafTexts(node: PatternNode, out: Set<string>): void {
  if (node.type === 'leaf') {
    if (node.named) out.add(node.text);
  } else if (node.type === 'inner') {
    for (const child of node.children) namedLeafTexts(child, out);
  }
}

/**
 * A pattern every match must match at its own node (the rule's `pattern`, or one in its `all`), at a strictness
 * that compares every token, with an anchor: a search then finds its candidates from the anchor's occurrences in
 * the text, as a pattern search does, instead of trying every node of the rule's kinds. `JSON.parse($X)` inside a
 * function without `try` then tries the few `JSON.parse` calls, not every call of the file.
 * @internal
 */
export function anchorOf(root: RuleNode): Pick<CompiledRule, 'anchor'> {
  const pattern = requiredPattern(root);
  return pattern ? { anchor: pattern } : {};
}

function requiredPattern(node: RuleNode): CompiledPattern | undefined {
  if (node.type === 'pattern') {
    const exact = node.strictness === 'smart' || node.strictness === 'cst';
    return exact && node.pattern.anchor && node.rootKind === undefined ? node.pattern : undefined;
  }
  if (node.type === 'all') {
    for (const rule of node.rules) {
      const found = requiredPattern(rule);
      if (found) return found;
    }
  }
  return undefined;
}
