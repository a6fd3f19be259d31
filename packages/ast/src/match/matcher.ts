import type { Node } from 'web-tree-sitter';
import { ERROR_KIND_ID, isEllipsis, isTrivial, type PatternNode } from '../pattern/pattern-node.js';

/**
 * The metavariable bindings of one match attempt, with a trail so a failed branch of the `$$$` search can be
 * undone exactly.
 */
export class Bindings {
  readonly singles = new Map<string, Node>();
  readonly multis = new Map<string, Node[]>();
  readonly #trail: { multi: boolean; name: string }[] = [];

  get mark(): number {
    return this.#trail.length;
  }

  undo(mark: number): void {
    while (this.#trail.length > mark) {
      const entry = this.#trail.pop();
      if (!entry) break;
      (entry.multi ? this.multis : this.singles).delete(entry.name);
    }
  }

  clear(): void {
    this.singles.clear();
    this.multis.clear();
    this.#trail.length = 0;
  }

  /** Binds a single metavariable; a name bound before must see the same code again. */
  bind(name: string, node: Node, src: string): boolean {
    const prior = this.singles.get(name);
    if (prior) return sameCode(prior, node, src);
    this.singles.set(name, node);
    this.#trail.push({ multi: false, name });
    return true;
  }

  bindMulti(name: string, nodes: Node[], src: string): boolean {
    const prior = this.multis.get(name);
    if (prior) {
      const a = prior.filter((n) => n.isNamed);
      const b = nodes.filter((n) => n.isNamed);
      return a.length === b.length && a.every((n, i) => sameCode(n, b[i] as Node, src));
    }
    this.multis.set(name, nodes);
    this.#trail.push({ multi: true, name });
    return true;
  }
}

/**
 * Whether two nodes are the same code: same kinds and children, leaves compared by text (ast-grep's rule for a
 * repeated metavariable, so `a+b` and `a + b` are the same code; `a` and `b` are not).
 */
export function sameCode(a: Node, b: Node, src: string): boolean {
  if (a.id === b.id && a.startIndex === b.startIndex) return true;
  // ast-grep compares by text as soon as one side has no named children.
  if (a.namedChildCount === 0 || b.namedChildCount === 0) return textOf(a, src) === textOf(b, src);
  if (a.typeId !== b.typeId) return false;
  const ac = a.children;
  const bc = b.children;
  if (ac.length !== bc.length) return false;
  for (let i = 0; i < ac.length; i++) if (!sameCode(ac[i] as Node, bc[i] as Node, src)) return false;
  return true;
}

/** The source text of a node (a slice of the file, not web-tree-sitter's chunked text callback). */
export function textOf(node: Node, src: string): string {
  return src.slice(node.startIndex, node.endIndex);
}

/** How one pattern node fared against one candidate node. */
const Outcome = { Matched: 0, SkipCandidate: 1, NoMatch: 2 } as const;
type Outcome = (typeof Outcome)[keyof typeof Outcome];

/** Steps one candidate may take before it is given up (a guard against pathological `$$$` nesting). */
const STEP_BUDGET = 100_000;

/**
 * Matches a compiled pattern against one candidate node under ast-grep's `smart` strictness: every node of the
 * pattern, unnamed tokens included, must match; unnamed tokens and comments of the candidate may be skipped;
 * trailing children of the candidate after the pattern's last child are allowed. Differences from ast-grep,
 * each deliberate: `$$$` backtracks (it is not lazy), `$$$` at the end of a list may match zero nodes, and a
 * comment between two nodes never blocks a match.
 */
export class Matcher {
  readonly #root: PatternNode;
  readonly #src: string;
  readonly bindings = new Bindings();
  #steps = 0;

  constructor(root: PatternNode, src: string) {
    this.#root = root;
    this.#src = src;
  }

  /** Whether the candidate matches; on success the bindings hold the captures. */
  match(candidate: Node): boolean {
    this.bindings.clear();
    this.#steps = 0;
    const goal = this.#root;
    if (goal.type === 'meta' && goal.meta.kind === 'single') {
      // A root metavariable stands for the candidate itself (comments included, as in ast-grep).
      if (goal.meta.named && !candidate.isNamed) return false;
      return goal.meta.name ? this.bindings.bind(goal.meta.name, candidate, this.#src) : true;
    }
    return this.#node(goal, candidate) === Outcome.Matched;
  }

  #node(goal: PatternNode, cand: Node): Outcome {
    if (++this.#steps > STEP_BUDGET) return Outcome.NoMatch;
    switch (goal.type) {
      case 'meta': {
        if (cand.isExtra) return Outcome.SkipCandidate;
        const meta = goal.meta;
        if (meta.kind === 'multi') {
          // A $$$ reached as a single node (never at list level): it takes the one node.
          return !meta.name || this.bindings.bindMulti(meta.name, [cand], this.#src) ? Outcome.Matched : Outcome.NoMatch;
        }
        if (meta.named && !cand.isNamed) return Outcome.NoMatch;
        if (meta.name && !this.bindings.bind(meta.name, cand, this.#src)) return Outcome.NoMatch;
        return Outcome.Matched;
      }
      case 'leaf': {
        const kindMatches = goal.kindId === ERROR_KIND_ID || cand.typeId === goal.kindId;
        if (kindMatches && (!goal.named || textOf(cand, this.#src) === goal.text)) return Outcome.Matched;
        if (cand.isExtra || !cand.isNamed) return Outcome.SkipCandidate;
        return Outcome.NoMatch;
      }
      case 'inner': {
        if (goal.kindId !== ERROR_KIND_ID && cand.typeId !== goal.kindId) {
          return cand.isExtra ? Outcome.SkipCandidate : Outcome.NoMatch;
        }
        const children = cand.children;
        // ast-grep: a pattern node with children never matches a candidate without any.
        if (children.length === 0) return Outcome.NoMatch;
        return this.#list(goal.children, 0, children, 0) ? Outcome.Matched : Outcome.NoMatch;
      }
    }
  }

  /** Matches goals[gi..] against cands[ci..], backtracking over the extent of every `$$$`. */
  #list(goals: readonly PatternNode[], gi: number, cands: readonly Node[], ci: number): boolean {
    for (;;) {
      if (gi >= goals.length) return true; // trailing candidates are allowed
      const goal = goals[gi] as PatternNode;
      if (isEllipsis(goal)) return this.#ellipsis(goals, gi, cands, ci);
      // Match one goal, skipping unnamed tokens and comments of the candidate before it.
      for (;;) {
        const cand = cands[ci];
        if (!cand) return false;
        const outcome = this.#node(goal, cand);
        if (outcome === Outcome.Matched) break;
        if (outcome === Outcome.NoMatch) return false;
        ci++;
      }
      gi++;
      ci++;
    }
  }

  #ellipsis(goals: readonly PatternNode[], gi: number, cands: readonly Node[], ci: number): boolean {
    const goal = goals[gi] as PatternNode & { type: 'meta' };
    const name = goal.meta.name;
    // Unnamed tokens right after the run (the `,` of `$$$A, $B`) are absorbed by it, as in ast-grep.
    let next = gi + 1;
    let skipped = 0;
    while (next < goals.length && isTrivial(goals[next] as PatternNode)) {
      next++;
      skipped++;
    }
    if (next >= goals.length) {
      // The run is last: it takes every remaining candidate (zero or more).
      const taken = cands.slice(ci);
      return this.#bindRun(name, taken.slice(0, Math.max(0, taken.length - skipped)));
    }
    const following = goals[next] as PatternNode;
    if (isEllipsis(following)) {
      // Two runs in a row: ast-grep gives the first exactly one node.
      if (ci >= cands.length) return false;
      const mark = this.bindings.mark;
      const taken = [cands[ci] as Node];
      if (this.#bindRun(name, taken.slice(0, Math.max(0, taken.length - skipped))) && this.#list(goals, next, cands, ci + 1)) {
        return true;
      }
      this.bindings.undo(mark);
      return false;
    }
    // Lazy first (ast-grep's choice), then longer runs: the next goal is tried at every later candidate.
    for (let k = ci; k < cands.length; k++) {
      const mark = this.bindings.mark;
      if (this.#node(following, cands[k] as Node) === Outcome.Matched) {
        this.bindings.undo(mark);
        const taken = cands.slice(ci, k);
        if (this.#bindRun(name, taken.slice(0, Math.max(0, taken.length - skipped))) && this.#list(goals, next, cands, k)) {
          return true;
        }
      }
      this.bindings.undo(mark);
    }
    return false;
  }

  #bindRun(name: string | undefined, nodes: Node[]): boolean {
    return !name || this.bindings.bindMulti(name, nodes, this.#src);
  }
}
