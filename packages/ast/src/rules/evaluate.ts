import type { Node } from 'web-tree-sitter';
import { Bindings, Matcher, textOf } from '../match/matcher.js';
import type { CompiledRule, RuleNode, StopBy } from './types.js';
import type { Containers } from './within.js';

/**
 * Evaluates a compiled rule on the nodes of one file, as ast-grep 0.51 does: the keys of a rule object are tried in
 * ast-grep's order (atomic, composite, relational) with one set of metavariable bindings shared by all of them;
 * a sub-rule that fails leaves the bindings as they were; `not` and a `stopBy` rule never bind; the first node a
 * relational rule finds is the one it keeps (no search for another that would let a later key match); constraints
 * are checked once the rule matched.
 * @internal
 */
export class RuleEvaluator {
  readonly bindings: Bindings;
  readonly #rule: CompiledRule;
  readonly #src: string;
  readonly #matchers = new Map<RuleNode, Matcher>();
  readonly #regexes = new Map<RuleNode, RegExp>();
  readonly #fields = new Map<string, number>();
  readonly #patternIds = new Map<RuleNode, number>();
  readonly #trace: boolean;
  /** The node `matchRoot` tries: patterns applied to it are traced (when tracing). */
  #root: Node | undefined;
  /** The kind of `#root` when the caller knew it (found by its kind): no wasm call to ask it again. */
  #rootKind: number | undefined;
  #fresh: RuleEvaluator | undefined;
  /** Nodes of the kinds some `inside` rules look for, with those rules' kinds: their ancestors found by position. */
  #within: { readonly containers: Containers; readonly kinds: ReadonlyMap<RuleNode, ReadonlySet<number>> } | undefined;

  /**
   * `trace` (edits): what the patterns applied to the matched node itself cover without naming it is recorded in
   * `bindings.unnamed`, tagged with the pattern, as a pattern search records it (see `unnamedParts`).
   */
  constructor(rule: CompiledRule, src: string, options: { readonly trace?: boolean } = {}) {
    this.#rule = rule;
    this.#src = src;
    this.#trace = options.trace === true;
    const first = firstPattern(rule);
    this.bindings = new Bindings(first?.deviations.ownText ?? true);
  }

  /**
   * Whether the node is a match of the whole rule (constraints included); the bindings hold its captures. `kindId`:
   * the node's kind when the caller knows it.
   */
  matchRoot(node: Node, kindId?: number): boolean {
    this.#root = node;
    this.#rootKind = kindId;
    this.bindings.clear();
    if (!this.#eval(this.#rule.root, node)) return false;
    for (const [name, constraint] of Object.entries(this.#rule.constraints)) {
      const bound = this.bindings.singles.get(name);
      if (bound && !this.#eval(constraint, bound)) return false;
    }
    return true;
  }

  /**
   * The tree's nodes of the kinds the rule's `inside` (`stopBy: "end"`) rules can match, so each finds the ancestors
   * it may match by position rather than by a walk down from the root per candidate (see `rangedInsides`).
   */
  lookInside(containers: Containers, kinds: ReadonlyMap<RuleNode, ReadonlySet<number>>): void {
    this.#within = { containers, kinds };
  }

  /** Whether a node matches a rule with no bindings at all (ast-grep's `Node::matches`, used by `stopBy`). */
  #test(rule: RuleNode, node: Node): boolean {
    this.#fresh ??= new RuleEvaluator(this.#rule, this.#src);
    this.#fresh.bindings.clear();
    return this.#fresh.#eval(rule, node);
  }

  #eval(rule: RuleNode, node: Node): boolean {
    const mark = this.bindings.mark;
    const ok = this.#evalInner(rule, node);
    if (!ok) this.bindings.undo(mark);
    return ok;
  }

  #evalInner(rule: RuleNode, node: Node): boolean {
    switch (rule.type) {
      case 'pattern': {
        const known = node === this.#root ? this.#rootKind : undefined;
        if (rule.rootKind !== undefined && (known ?? node.typeId) !== rule.rootKind) return false;
        const traced = this.#trace && node.id === this.#root?.id;
        if (traced) this.bindings.tracing = this.#patternIndex(rule);
        try {
          const ok = this.#matcher(rule).extend(node, known);
          if (ok && traced) this.bindings.matched();
          return ok;
        } finally {
          this.bindings.tracing = undefined;
        }
      }
      case 'kind':
        return ((node === this.#root ? this.#rootKind : undefined) ?? node.typeId) === rule.kindId;
      case 'regex': {
        let regex = this.#regexes.get(rule);
        if (!regex) {
          regex = new RegExp(rule.source, rule.flags);
          this.#regexes.set(rule, regex);
        }
        return regex.test(textOf(node, this.#src));
      }
      case 'nthChild':
        return this.#nthChild(rule, node);
      case 'all':
        return rule.rules.every((r) => this.#eval(r, node));
      case 'any':
        return rule.rules.some((r) => this.#eval(r, node));
      case 'not': {
        const mark = this.bindings.mark;
        const hit = this.#eval(rule.rule, node);
        this.bindings.undo(mark);
        return !hit;
      }
      case 'matches': {
        const util = this.#rule.utils[rule.util];
        return util ? this.#eval(util, node) : false;
      }
      case 'inside': {
        if (rule.field !== undefined) return this.#insideField(rule.rule, rule.stopBy, this.#field(rule.field, node), node);
        // The ancestors of the kinds the rule can match, nearest first: the others would fail it anyway.
        const kinds = this.#within?.kinds.get(rule);
        const found = kinds ? this.#within?.containers.ancestorsOf(node, kinds) : undefined;
        if (found) {
          for (const n of found) if (this.#eval(rule.rule, n)) return true;
          return false;
        }
        return this.#inside(rule.rule, rule.stopBy, node);
      }
      case 'has':
        return rule.field === undefined ? this.#has(rule.rule, rule.stopBy, node) : this.#hasField(rule.rule, rule.stopBy, this.#field(rule.field, node), node);
      case 'precedes':
        return this.#along(rule.rule, rule.stopBy, () => node.nextSibling, () => siblings(node, 'next'));
      case 'follows':
        return this.#along(rule.rule, rule.stopBy, () => node.previousSibling, () => siblings(node, 'previous'));
    }
  }

  #matcher(rule: RuleNode & { type: 'pattern' }): Matcher {
    let matcher = this.#matchers.get(rule);
    if (!matcher) {
      matcher = new Matcher(rule.pattern.root, this.#src, rule.pattern.deviations, { strictness: rule.strictness, bindings: this.bindings });
      this.#matchers.set(rule, matcher);
    }
    return matcher;
  }

  #patternIndex(rule: RuleNode): number {
    let index = this.#patternIds.get(rule);
    if (index === undefined) {
      index = this.#patternIds.size;
      this.#patternIds.set(rule, index);
    }
    return index;
  }

  #field(name: string, node: Node): number {
    let id = this.#fields.get(name);
    if (id === undefined) {
      id = node.tree.language.fieldIdForName(name) ?? -1;
      this.#fields.set(name, id);
    }
    return id;
  }

  /**
   * Walks a chain of nodes as ast-grep's `StopBy::find` does: the first one alone for `neighbor` (the parent or the
   * adjacent sibling), all of them for `end`, up to and including the first the stop rule matches otherwise.
   * `first` is asked for only for `neighbor`: a node's parent costs a walk down from the root.
   */
  #along(rule: RuleNode, stopBy: StopBy, first: () => Node | null, chain: () => Iterable<Node>, check?: (n: Node) => boolean): boolean {
    if (stopBy === 'neighbor') {
      const next = first();
      return next !== null && (!check || check(next)) && this.#eval(rule, next);
    }
    for (const n of chain()) {
      const stop = stopBy !== 'end' && this.#test(stopBy, n);
      if ((!check || check(n)) && this.#eval(rule, n)) return true;
      if (stop) return false;
    }
    return false;
  }

  #inside(rule: RuleNode, stopBy: StopBy, node: Node): boolean {
    return this.#along(rule, stopBy, () => node.parent, () => ancestors(node));
  }

  /** `inside` with `field`: each ancestor tried must hold the node it was reached from in that field. */
  #insideField(rule: RuleNode, stopBy: StopBy, field: number, node: Node): boolean {
    let last = node.id;
    return this.#along(rule, stopBy, () => node.parent, () => ancestors(node), (n) => {
      const expected = last;
      last = n.id;
      return n.childForFieldId(field)?.id === expected;
    });
  }

  #has(rule: RuleNode, stopBy: StopBy, node: Node): boolean {
    if (stopBy === 'neighbor') return node.children.some((c) => this.#eval(rule, c));
    if (stopBy === 'end') return this.#descendants(rule, node);
    // Each child, then (unless the child is where the search stops) its own children, depth first.
    return this.#descendants(rule, node, (c) => !this.#test(stopBy, c));
  }

  /**
   * Pre-order over the descendants, the node itself left out; below a node only where `deeper` says so. A cursor, not
   * recursion (the tree may be nested 50,000 levels deep) and not `children` (web-tree-sitter keeps a node's children
   * once asked for, so each candidate would hold a copy of its whole subtree: 50,000 nested arrays ran out of heap).
   */
  #descendants(rule: RuleNode, node: Node, deeper?: (n: Node) => boolean): boolean {
    const cursor = node.walk();
    try {
      if (!cursor.gotoFirstChild()) return false;
      let depth = 1;
      for (;;) {
        const n = cursor.currentNode;
        if (this.#eval(rule, n)) return true;
        if ((!deeper || deeper(n)) && cursor.gotoFirstChild()) {
          depth++;
          continue;
        }
        while (!cursor.gotoNextSibling()) {
          if (--depth === 0 || !cursor.gotoParent()) return false;
        }
      }
    } finally {
      cursor.delete();
    }
  }

  /** `has` with `field`: the node's child in that field (ast-grep looks no deeper than its children for a stopBy rule). */
  #hasField(rule: RuleNode, stopBy: StopBy, field: number, node: Node): boolean {
    const child = node.childForFieldId(field);
    if (!child) return false;
    if (stopBy === 'neighbor') return this.#eval(rule, child);
    if (stopBy === 'end') return this.#eval(rule, child) || this.#descendants(rule, child);
    return this.#eval(rule, child) || (!this.#test(stopBy, child) && child.children.some((c) => this.#eval(rule, c)));
  }

  #nthChild(rule: RuleNode & { type: 'nthChild' }, node: Node): boolean {
    const parent = node.parent;
    if (!parent) return false;
    let siblings = parent.children.filter((c) => c.isNamed);
    if (rule.ofRule) {
      const of = rule.ofRule;
      siblings = siblings.filter((c) => {
        const mark = this.bindings.mark;
        const ok = this.#eval(of, c);
        this.bindings.undo(mark);
        return ok;
      });
    }
    if (rule.reverse) siblings.reverse();
    const index = siblings.findIndex((c) => c.id === node.id);
    if (index < 0) return false;
    // ast-grep then matches the node against ofRule once more, keeping what it binds.
    if (rule.ofRule) this.#eval(rule.ofRule, node);
    const at = index + 1;
    if (rule.step === 0) return at === rule.offset;
    const n = at - rule.offset;
    return Math.trunc(n / rule.step) >= 0 && n % rule.step === 0;
  }
}

/**
 * The ancestors, nearest first, as ast-grep finds them: the chain of `childWithDescendant` from the root down
 * (which differs from the parents where zero-width nodes sit side by side).
 */
function ancestors(node: Node): Node[] {
  const chain: Node[] = [];
  for (let at: Node | null = node.tree.rootNode; at && at.id !== node.id; at = at.childWithDescendant(node)) chain.push(at);
  return chain.reverse();
}

/**
 * The siblings after (or before) a node, as ast-grep's `next_all` / `prev_all` find them: a cursor on the parent
 * moved to its first child ending after the node's start (`goto_first_child_for_byte`), then stepped along. For a
 * zero-width node that first child is a later one, so the walk starts past it; ast-grep's behaviour, reproduced
 * on the children's positions (web-tree-sitter's own cursor call answers otherwise for zero-width children).
 */
function* siblings(node: Node, direction: 'next' | 'previous'): Generator<Node> {
  const children = (node.parent ?? node).children;
  const at = children.findIndex((c) => c.endIndex > node.startIndex);
  if (at < 0) return;
  if (direction === 'next') for (let i = at + 1; i < children.length; i++) yield children[i] as Node;
  else for (let i = at - 1; i >= 0; i--) yield children[i] as Node;
}

function firstPattern(rule: CompiledRule): (RuleNode & { type: 'pattern' })['pattern'] | undefined {
  const visit = (node: RuleNode): (RuleNode & { type: 'pattern' })['pattern'] | undefined => {
    switch (node.type) {
      case 'pattern':
        return node.pattern;
      case 'all':
      case 'any':
        for (const r of node.rules) {
          const found = visit(r);
          if (found) return found;
        }
        return undefined;
      case 'not':
      case 'inside':
      case 'has':
      case 'precedes':
      case 'follows':
        return visit(node.rule);
      default:
        return undefined;
    }
  };
  return visit(rule.root);
}
