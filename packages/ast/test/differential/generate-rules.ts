import { seededRandom } from '@agent-tools/test-utils';
import type { Node } from 'web-tree-sitter';
import type { TreeSitterRuntime } from '../../src/engine/runtime.js';
import type { LanguageSpec } from '../../src/languages.js';

/** A generated rule: ast-grep's rule object (and constraints), where it came from and what it is made of. */
export interface GeneratedRule {
  readonly rule: Record<string, unknown>;
  readonly constraints?: Record<string, unknown>;
  /** `file:line` of the node it was built around, and that node's kind. */
  readonly origin: string;
  /** The keys it combines, for the report (`kind+inside+not.has`). */
  readonly shape: string;
  /** Metavariables its pattern binds (for rewrites). */
  readonly singles: readonly string[];
}

/** Characters a regular expression must escape (the same in Rust's and JavaScript's syntax). */
const escapeRegex = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * Rules built from real code (fixed seed) around a random named node N: a base (N's kind, N's text as a pattern
 * with one part made `$A`, or `any` of N's kind and another), then one to three of: `inside` an ancestor's kind
 * (the parent with `neighbor` or its `field`, a farther one with `end`, or up to a `stopBy` rule), `has` a
 * descendant's kind (a child with `neighbor` or its `field`, deeper with `end`, sometimes with a `regex` of its
 * text), `not` (`has` or `inside` a kind from elsewhere in the corpus, or a regex), `precedes` / `follows` a
 * sibling's kind, `nthChild` (N's position, plain, `An+B` or reversed), a `regex` of N's text; a constraint
 * with a regex drawn from the text `$A` captured. Keys go in one object or in an `all`.
 */
export async function generateRules(
  runtime: TreeSitterRuntime,
  spec: LanguageSpec,
  files: readonly { readonly name: string; readonly text: string }[],
  count: number,
  seed: number,
): Promise<GeneratedRule[]> {
  const rnd = seededRandom(seed);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(rnd() * items.length)] as T;
  const parser = await runtime.parser(spec);
  const pool: { file: string; node: Node }[] = [];
  const kinds = new Set<string>();
  const trees = [];
  for (const file of files) {
    const tree = runtime.parseWith(parser, file.text);
    if (!tree) continue;
    trees.push(tree);
    const visit = (node: Node): void => {
      if (node.isNamed && !node.isError && !node.isMissing && !node.isExtra && !node.hasError) {
        kinds.add(node.type);
        if (node.parent) pool.push({ file: file.name, node });
      }
      for (const child of node.children) visit(child);
    };
    visit(tree.rootNode);
  }
  const kindList = [...kinds].filter((k) => k !== 'ERROR').sort();
  const out: GeneratedRule[] = [];
  const seen = new Set<string>();
  try {
    for (let attempt = 0; out.length < count && attempt < count * 30 && pool.length > 0; attempt++) {
      const { file, node } = pick(pool);
      const made = makeRule(node, rnd, pick, kindList);
      if (!made) continue;
      const key = JSON.stringify([made.rule, made.constraints]);
      if (seen.has(key)) continue;
      seen.add(key);
      out.push({ ...made, origin: `${file}:${node.startPosition.row + 1} ${node.type}` });
    }
  } finally {
    for (const tree of trees) tree.delete();
  }
  return out;
}

function makeRule(
  node: Node,
  rnd: () => number,
  pick: <T>(items: readonly T[]) => T,
  kinds: readonly string[],
): Omit<GeneratedRule, 'origin'> | undefined {
  const parts: [string, Record<string, unknown>][] = [];
  let constraints: Record<string, unknown> | undefined;
  const singles: string[] = [];
  const r = rnd();
  const text = node.text;
  if (r < 0.4 && text.length <= 80 && !text.includes('\n')) {
    // N's text as a pattern, one named descendant made $A.
    const leaves = namedDescendants(node).filter((d) => d.id !== node.id && d.endIndex - d.startIndex <= 30);
    if (leaves.length === 0) return undefined;
    // A hole glued to other word characters (inside a string or a longer name) is no metavariable to ast-grep.
    const word = /[\p{L}\p{N}_$]/u;
    const fits = leaves.filter((d) => !word.test(text[d.startIndex - node.startIndex - 1] ?? '') && !word.test(text[d.endIndex - node.startIndex] ?? ''));
    if (fits.length === 0) return undefined;
    const hole = pick(fits);
    const pattern = text.slice(0, hole.startIndex - node.startIndex) + '$A' + text.slice(hole.endIndex - node.startIndex);
    if (/\$[A-Z_]/.test(text) || pattern.trim() === '$A') return undefined;
    parts.push(['pattern', { pattern }]);
    singles.push('A');
    if (rnd() < 0.5) {
      const captured = hole.text.split('\n')[0] ?? '';
      const prefix = [...captured].slice(0, 1 + Math.floor(rnd() * 4)).join('');
      constraints = { A: { regex: `^${escapeRegex(prefix)}` } };
    }
  } else if (r < 0.5) {
    parts.push(['any', { any: [{ kind: node.type }, { kind: pick(kinds) }] }]);
  } else {
    parts.push(['kind', { kind: node.type }]);
  }
  const extras = 1 + Math.floor(rnd() * 3);
  for (let i = 0; i < extras; i++) {
    const made = relation(node, rnd, pick, kinds);
    if (made && !parts.some(([name]) => name === made[0])) parts.push(made);
  }
  if (parts.length < 2) return undefined;
  const shape = parts.map(([name]) => name).join('+');
  let rule: Record<string, unknown>;
  if (rnd() < 0.3) rule = { all: parts.map(([, part]) => part) };
  else rule = Object.assign({}, ...parts.map(([, part]) => part)) as Record<string, unknown>;
  return { rule, ...(constraints ? { constraints } : {}), shape: constraints ? `${shape}+constraint` : shape, singles };
}

/** One key built from the tree around the node: [its name for the report, the key and value]. */
function relation(
  node: Node,
  rnd: () => number,
  pick: <T>(items: readonly T[]) => T,
  kinds: readonly string[],
): [string, Record<string, unknown>] | undefined {
  const r = rnd();
  if (r < 0.25) {
    const ancestors: Node[] = [];
    for (let a = node.parent; a && ancestors.length < 5; a = a.parent) ancestors.push(a);
    const k = Math.floor(rnd() * ancestors.length);
    const target = ancestors[k];
    if (!target) return undefined;
    if (k === 0) {
      const field = fieldOf(node);
      if (field && rnd() < 0.4) return ['inside.field', { inside: { kind: target.type, field } }];
      return ['inside', { inside: { kind: target.type, ...(rnd() < 0.5 ? { stopBy: 'neighbor' } : {}) } }];
    }
    const stop = ancestors[k + Math.floor(rnd() * 2)];
    if (stop && rnd() < 0.3) return ['inside.stopBy-rule', { inside: { kind: target.type, stopBy: { kind: stop.type } } }];
    return ['inside.end', { inside: { kind: target.type, stopBy: 'end' } }];
  }
  if (r < 0.5) {
    const children = node.namedChildren.filter((c) => !c.isExtra);
    if (children.length === 0) return undefined;
    let target = pick(children);
    let depth = 1;
    while (rnd() < 0.5 && target.namedChildCount > 0) {
      target = pick(target.namedChildren.filter((c) => !c.isExtra)) ?? target;
      depth++;
    }
    const regex = rnd() < 0.3 ? { regex: `^${escapeRegex([...(target.text.split('\n')[0] ?? '')].slice(0, 3).join(''))}` } : {};
    if (depth === 1) {
      const field = fieldOf(target);
      if (field && rnd() < 0.4) return ['has.field', { has: { kind: target.type, field, ...regex } }];
      return ['has', { has: { kind: target.type, ...regex } }];
    }
    if (rnd() < 0.2) return ['has.stopBy-rule', { has: { kind: target.type, stopBy: { kind: pick(kinds) }, ...regex } }];
    return ['has.end', { has: { kind: target.type, stopBy: 'end', ...regex } }];
  }
  if (r < 0.7) {
    const q = rnd();
    if (q < 0.45) return ['not.has', { not: { has: { kind: pick(kinds), stopBy: 'end' } } }];
    if (q < 0.9) return ['not.inside', { not: { inside: { kind: pick(kinds), stopBy: 'end' } } }];
    return ['not.regex', { not: { regex: escapeRegex([...(node.text.split('\n')[0] ?? '')].slice(0, 2).join('')) } }];
  }
  if (r < 0.8) {
    const next = rnd() < 0.5;
    const sibling = next ? node.nextNamedSibling : node.previousNamedSibling;
    if (!sibling || sibling.isExtra) return undefined;
    const key = next ? 'precedes' : 'follows';
    const adjacent = (next ? node.nextSibling : node.previousSibling)?.id === sibling.id;
    return [key, { [key]: { kind: sibling.type, ...(adjacent && rnd() < 0.5 ? {} : { stopBy: 'end' }) } }];
  }
  if (r < 0.9) {
    const parent = node.parent;
    if (!parent) return undefined;
    const named = parent.namedChildren;
    const index = named.findIndex((c) => c.id === node.id);
    if (index < 0) return undefined;
    const q = rnd();
    if (q < 0.5) return ['nthChild', { nthChild: index + 1 }];
    if (q < 0.75) return ['nthChild.reverse', { nthChild: { position: named.length - index, reverse: true } }];
    return ['nthChild.AnB', { nthChild: index % 2 === 0 ? '2n+1' : '2n' }];
  }
  const prefix = [...(node.text.split('\n')[0] ?? '')].slice(0, 1 + Math.floor(rnd() * 5)).join('');
  return prefix.trim() ? ['regex', { regex: `^${escapeRegex(prefix)}` }] : undefined;
}

function fieldOf(node: Node): string | undefined {
  const parent = node.parent;
  if (!parent) return undefined;
  for (let i = 0; i < parent.childCount; i++) {
    if (parent.child(i)?.id === node.id) return parent.fieldNameForChild(i) ?? undefined;
  }
  return undefined;
}

function namedDescendants(node: Node): Node[] {
  const out: Node[] = [];
  const visit = (n: Node): void => {
    if (n.isNamed && !n.isExtra) out.push(n);
    for (const child of n.namedChildren) visit(child);
  };
  visit(node);
  return out;
}
