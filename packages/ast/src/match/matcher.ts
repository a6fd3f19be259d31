import type { Node } from 'web-tree-sitter';
import { type Deviations, ERROR_KIND_ID, isEllipsis, isTrivial, type PatternNode, type Strictness } from '../pattern/pattern-node.js';
import { ownText, sameCode, textOf } from './same-code.js';

export { textOf } from './same-code.js';

/**
 * The metavariable bindings of one match attempt, with a trail so a failed branch of the `$$$` search can be
 * undone exactly.
 */
export class Bindings {
  readonly singles = new Map<string, Node>();
  readonly multis = new Map<string, Node[]>();
  /** Unnamed `$$$` runs, in the order they were bound (their positions for `structured`). */
  readonly anonymous: Node[][] = [];
  /**
   * Candidate nodes the match covers without the pattern naming them (traced for edits only): tokens skipped in
   * front of a pattern token, and children after a node's last pattern child.
   */
  readonly unnamed: UnnamedGroup[] = [];
  /** The traced patterns that matched (their `tracing` tags), undone with the bindings. */
  readonly traced: number[] = [];
  readonly #trail: { kind: 'single' | 'multi' | 'anonymous' | 'unnamed' | 'traced'; name: string }[] = [];
  readonly #ownText: boolean;
  /**
   * Which pattern the notes are recorded for, or `undefined` when nothing is traced. A rule evaluator sets it only
   * while a pattern is tried on the node the rule matches (not on the nodes its `has` or `inside` reach).
   */
  tracing: number | undefined;

  constructor(ownText: boolean, trace = false) {
    this.#ownText = ownText;
    this.tracing = trace ? 0 : undefined;
  }

  /** Records candidate nodes the pattern does not name (only when tracing); undone with the bindings. */
  note(kind: UnnamedGroup['kind'], nodes: readonly Node[]): void {
    if (this.tracing === undefined) return;
    const wide = nodes.filter((n) => n.endIndex > n.startIndex);
    if (wide.length === 0) return;
    this.unnamed.push({ kind, nodes: wide, by: this.tracing });
    this.#trail.push({ kind: 'unnamed', name: '' });
  }

  /** Records that the pattern being traced matched (a rule weighs what each of its patterns names). */
  matched(): void {
    if (this.tracing === undefined) return;
    this.traced.push(this.tracing);
    this.#trail.push({ kind: 'traced', name: '' });
  }

  get mark(): number {
    return this.#trail.length;
  }

  undo(mark: number): void {
    while (this.#trail.length > mark) {
      const entry = this.#trail.pop();
      if (!entry) break;
      if (entry.kind === 'anonymous') this.anonymous.pop();
      else if (entry.kind === 'unnamed') this.unnamed.pop();
      else if (entry.kind === 'traced') this.traced.pop();
      else (entry.kind === 'multi' ? this.multis : this.singles).delete(entry.name);
    }
  }

  clear(): void {
    this.singles.clear();
    this.multis.clear();
    this.anonymous.length = 0;
    this.unnamed.length = 0;
    this.traced.length = 0;
    this.#trail.length = 0;
  }

  /** Binds a single metavariable; a name bound before must see the same code again. */
  bind(name: string, node: Node, src: string): boolean {
    const prior = this.singles.get(name);
    if (prior) return sameCode(prior, node, src, this.#ownText);
    this.singles.set(name, node);
    this.#trail.push({ kind: 'single', name });
    return true;
  }

  /** Binds a `$$$` run (unnamed runs are only recorded); a name bound before must see the same named nodes. */
  bindMulti(name: string | undefined, nodes: Node[], src: string): boolean {
    if (name === undefined) {
      this.anonymous.push(nodes);
      this.#trail.push({ kind: 'anonymous', name: '' });
      return true;
    }
    const prior = this.multis.get(name);
    if (prior) {
      const a = prior.filter((n) => n.isNamed);
      const b = nodes.filter((n) => n.isNamed);
      return a.length === b.length && a.every((n, i) => sameCode(n, b[i] as Node, src, this.#ownText));
    }
    this.multis.set(name, nodes);
    this.#trail.push({ kind: 'multi', name });
    return true;
  }
}

/** Candidate nodes a match covers that the pattern does not name. */
export interface UnnamedGroup {
  /** `skipped`: in front of a pattern token; `trailing`: after the last pattern child of their parent. */
  readonly kind: 'skipped' | 'trailing';
  readonly nodes: readonly Node[];
  /** The pattern that left them unnamed (a rule can apply several to one node). */
  readonly by: number;
}

/** How one pattern node fared against one candidate node. */
const Outcome = { Matched: 0, SkipCandidate: 1, NoMatch: 2, SkipGoal: 3, SkipBoth: 4 } as const;
type Outcome = (typeof Outcome)[keyof typeof Outcome];

/** Steps one candidate may take before it is given up (a guard against pathological `$$$` nesting). */
const STEP_BUDGET = 100_000;

/**
 * Matches a compiled pattern against one candidate node. The algorithm is ast-grep's under its default `smart`
 * strictness, step for step: every node of the pattern, unnamed tokens included, must match; unnamed tokens and
 * comments of the candidate are skipped in front of a leaf or a metavariable; trailing children after the
 * pattern's last are allowed; `$$$` takes candidates until the next pattern node fits. The {@link Deviations}
 * switched on change that in the documented ways.
 */
export class Matcher {
  readonly #root: PatternNode;
  readonly #src: string;
  readonly #dev: Deviations;
  readonly #strictness: Strictness;
  /** Comments of the candidate are skipped (ast-grep: every strictness but `cst` and `ast`). */
  readonly #skipComments: boolean;
  readonly bindings: Bindings;
  /** Whether each pattern node other than a `$$$` run must take a node of the candidate (see {@link leastOf}). */
  readonly #counted: boolean;
  #steps = 0;

  /**
   * `strictness` is ast-grep's (default `smart`); `bindings` are shared with other matchers when the pattern is one
   * atom of a rule, so a metavariable bound by an earlier atom must see the same code here. `trace` records what a
   * match covers without naming it (edits need it, searches do not).
   */
  constructor(
    root: PatternNode,
    src: string,
    deviations: Deviations,
    options: { strictness?: Strictness; bindings?: Bindings; trace?: boolean } = {},
  ) {
    this.#root = root;
    this.#src = src;
    this.#dev = deviations;
    this.#strictness = options.strictness ?? 'smart';
    this.#skipComments = this.#strictness !== 'cst' && this.#strictness !== 'ast';
    this.#counted = this.#strictness === 'smart' || this.#strictness === 'cst';
    this.bindings = options.bindings ?? new Bindings(deviations.ownText, options.trace ?? false);
  }

  /**
   * Whether the candidate matches; on success the bindings hold the captures. `kindId`: the candidate's kind when the
   * caller knows it (a node found by its kind), which saves asking wasm again.
   */
  match(candidate: Node, kindId?: number): boolean {
    this.bindings.clear();
    return this.extend(candidate, kindId);
  }

  /**
   * Whether the candidate matches with the bindings made so far (by other atoms of a rule); on failure the
   * bindings are left exactly as they were.
   */
  extend(candidate: Node, kindId?: number): boolean {
    this.#steps = 0;
    const mark = this.bindings.mark;
    const goal = this.#root;
    let ok: boolean;
    if (goal.type === 'meta' && goal.meta.kind === 'single' && (this.#strictness === 'smart' || !(this.#skipComments && candidate.isExtra))) {
      // A root metavariable stands for the candidate itself (comments included under `smart`, as in ast-grep).
      if (goal.meta.named && !candidate.isNamed) return false;
      ok = goal.meta.name ? this.bindings.bind(goal.meta.name, candidate, this.#src) : true;
    } else if (goal.type === 'inner' && kindId !== undefined && kindId === goal.kindId) {
      ok = this.#inner(goal, candidate) === Outcome.Matched;
    } else {
      ok = this.#node(goal, candidate) === Outcome.Matched;
    }
    if (!ok) this.bindings.undo(mark);
    return ok;
  }

  #node(goal: PatternNode, cand: Node): Outcome {
    if (++this.#steps > STEP_BUDGET) return Outcome.NoMatch;
    switch (goal.type) {
      case 'meta': {
        if (cand.isExtra && this.#skipComments) return Outcome.SkipCandidate;
        const meta = goal.meta;
        if (meta.kind === 'multi') {
          // A $$$ reached as a single node (never at list level): it takes the one node.
          return this.bindings.bindMulti(meta.name, [cand], this.#src) ? Outcome.Matched : Outcome.NoMatch;
        }
        if (meta.named && !cand.isNamed) return Outcome.NoMatch;
        if (meta.name && !this.bindings.bind(meta.name, cand, this.#src)) return Outcome.NoMatch;
        return Outcome.Matched;
      }
      case 'leaf': {
        const kindMatches = goal.kindId === ERROR_KIND_ID || cand.typeId === goal.kindId;
        if (kindMatches && (!goal.named || textOf(cand, this.#src) === goal.text)) return Outcome.Matched;
        if (this.#skipComments && cand.isExtra) return Outcome.SkipCandidate;
        // ast-grep's `match_terminal` per strictness.
        switch (this.#strictness) {
          case 'cst':
            return Outcome.NoMatch;
          case 'smart':
            return cand.isNamed ? Outcome.NoMatch : Outcome.SkipCandidate;
          default: {
            if (this.#strictness === 'signature' && kindMatches) return Outcome.Matched;
            const skipGoal = !goal.named;
            const skipCand = !cand.isNamed;
            if (skipGoal) return skipCand ? Outcome.SkipBoth : Outcome.SkipGoal;
            return skipCand ? Outcome.SkipCandidate : Outcome.NoMatch;
          }
        }
      }
      case 'inner': {
        if (goal.kindId !== ERROR_KIND_ID && cand.typeId !== goal.kindId) {
          return this.#dev.comments && this.#skipComments && cand.isExtra ? Outcome.SkipCandidate : Outcome.NoMatch;
        }
        return this.#inner(goal, cand);
      }
    }
  }

  /** A pattern node with children against a candidate of its kind. */
  #inner(goal: PatternNode & { type: 'inner' }, cand: Node): Outcome {
    // Under `smart` and `cst` every pattern node but a `$$$` run takes a node of its own, so a candidate with fewer
    // nodes than the pattern names cannot match: one wasm call turns away most candidates (`f(a)` for
    // `$F($X, $X)`) before their children are made into objects. A flat node of three children or fewer is not
    // checked: such kinds (`a === b`) mostly have as many, so the call would be wasted.
    if (this.#counted) {
      const least = leastOf(goal);
      if (least.deep ? cand.descendantCount < least.nodes : least.children > 3 && cand.childCount < least.children) return Outcome.NoMatch;
    }
    const children = cand.children;
    // ast-grep: a pattern node with children never matches a candidate without any.
    if (children.length === 0) return Outcome.NoMatch;
    const mark = this.bindings.mark;
    if (!this.#list(goal.children, 0, children, 0)) return Outcome.NoMatch;
    // After the children, not before: most candidates fail there, and the text between children costs a
    // wasm call per child (a fifth of a search over cached trees when it came first).
    if (this.#dev.ownText && this.#strictness !== 'signature' && goal.kindId !== ERROR_KIND_ID && ownText(cand, this.#src, children) !== (goal.ownText ?? '')) {
      this.bindings.undo(mark);
      return Outcome.NoMatch;
    }
    return Outcome.Matched;
  }

  /** Matches goals[gi..] against cands[ci..] (ast-grep's `match_nodes_impl_recursive`, one loop turn per call). */
  #list(goals: readonly PatternNode[], gi: number, cands: readonly Node[], ci: number): boolean {
    for (;;) {
      if (gi >= goals.length) {
        this.bindings.note('trailing', cands.slice(ci));
        return true;
      }
      if (isEllipsis(goals[gi] as PatternNode)) return this.#ellipsis(goals, gi, cands, ci);
      // One goal, skipping the candidate's unnamed tokens and comments in front of it (and, under the looser
      // strictness levels, the pattern's own unnamed tokens).
      let consumed = true;
      for (;;) {
        const cand = cands[ci];
        // Out of candidates: a match only if every goal left may be skipped (under `smart` the goal here is never
        // a `$$$`, so this is a mismatch, as in ast-grep).
        if (!cand) return this.#skipGoals(goals, gi);
        const outcome = this.#node(goals[gi] as PatternNode, cand);
        if (outcome === Outcome.Matched) break;
        if (outcome === Outcome.NoMatch) return false;
        if (outcome === Outcome.SkipCandidate) {
          if (!cand.isExtra) this.bindings.note('skipped', [cand]);
          ci++;
          continue;
        }
        gi++;
        if (outcome === Outcome.SkipBoth) ci++;
        if (gi >= goals.length) {
          consumed = false;
          break;
        }
      }
      if (consumed) {
        gi++;
        ci++;
      }
      if (gi >= goals.length) return this.#trailing(cands, ci);
      if (ci >= cands.length) return this.#dev.emptyTrailing && this.#bindEmptyRuns(goals, gi);
    }
  }

  /** ast-grep's `should_skip_goal`: whether every goal from gi on may go unmatched when the candidates ran out. */
  #skipGoals(goals: readonly PatternNode[], gi: number): boolean {
    for (let i = gi; i < goals.length; i++) {
      const goal = goals[i] as PatternNode;
      if (isEllipsis(goal)) continue;
      if (this.#strictness === 'smart' || this.#strictness === 'cst') return false;
      const skippable = goal.type === 'meta' ? goal.meta.kind === 'single' && !goal.meta.named : goal.type === 'leaf' && !goal.named;
      if (!skippable) return false;
    }
    return true;
  }

  /** ast-grep's `should_skip_trailing`: which candidates may follow the pattern's last node. */
  #trailing(cands: readonly Node[], ci: number): boolean {
    // Trailing candidates a match allows are recorded: a rewrite keeps them.
    this.bindings.note('trailing', cands.slice(ci));
    switch (this.#strictness) {
      case 'smart':
        return true;
      case 'cst':
        return ci >= cands.length;
      case 'ast':
        return cands.slice(ci).every((c) => !c.isNamed);
      default:
        return cands.slice(ci).every((c) => !c.isNamed || c.isExtra);
    }
  }

  /** Binds every `$$$` from goals[gi] on to nothing, when nothing but `$$$` runs is left. */
  #bindEmptyRuns(goals: readonly PatternNode[], gi: number): boolean {
    const mark = this.bindings.mark;
    for (let i = gi; i < goals.length; i++) {
      const goal = goals[i] as PatternNode;
      if (goal.type !== 'meta' || goal.meta.kind !== 'multi' || !this.bindings.bindMulti(goal.meta.name, [], this.#src)) {
        this.bindings.undo(mark);
        return false;
      }
    }
    return true;
  }

  #ellipsis(goals: readonly PatternNode[], at: number, cands: readonly Node[], ci: number): boolean {
    const goal = goals[at] as PatternNode & { type: 'meta' };
    const name = goal.meta.name;
    let gi = at + 1;
    if (gi >= goals.length) return this.bindings.bindMulti(name, cands.slice(ci), this.#src);
    // Unnamed tokens right after the run (the `,` of `$$$A, $B`) are not matched on their own, as in ast-grep.
    const tokens: PatternNode[] = [];
    while (gi < goals.length && isTrivial(goals[gi] as PatternNode)) tokens.push(goals[gi++] as PatternNode);
    if (gi >= goals.length) return this.bindings.bindMulti(name, this.#withoutTokens(cands.slice(ci), tokens), this.#src);
    if (isEllipsis(goals[gi] as PatternNode)) {
      // Two runs in a row: ast-grep gives the first exactly one node.
      if (ci + 1 >= cands.length) return false;
      const mark = this.bindings.mark;
      if (this.bindings.bindMulti(name, this.#withoutTokens([cands[ci] as Node], tokens), this.#src) && this.#list(goals, gi, cands, ci + 1)) {
        return true;
      }
      this.bindings.undo(mark);
      return false;
    }
    // The run ends where the next goal first fits (ast-grep's lazy choice); with backtracking, later fits are
    // tried when the rest of the pattern fails after the first.
    const following = goals[gi] as PatternNode;
    for (let k = ci; k < cands.length; k++) {
      const mark = this.bindings.mark;
      const fits = this.#node(following, cands[k] as Node) === Outcome.Matched;
      this.bindings.undo(mark);
      if (!fits) continue;
      if (this.bindings.bindMulti(name, this.#withoutTokens(cands.slice(ci, k), tokens), this.#src) && this.#list(goals, gi, cands, k)) {
        return true;
      }
      this.bindings.undo(mark);
      if (!this.#dev.backtrack) return false;
    }
    return false;
  }

  /**
   * A run's nodes without the tokens the pattern has right after it. ast-grep drops as many nodes from the end
   * as there are such tokens, whatever they are (so `{ $$$B }` followed by a Go line break drops a statement);
   * matching them drops only the candidate's own trailing tokens of those kinds.
   */
  #withoutTokens(nodes: Node[], tokens: readonly PatternNode[]): Node[] {
    if (tokens.length === 0) return nodes;
    if (!this.#dev.trailingTokens) return nodes.slice(0, Math.max(0, nodes.length - tokens.length));
    let end = nodes.length;
    for (let t = tokens.length - 1; t >= 0 && end > 0; t--) {
      const token = tokens[t] as PatternNode & { type: 'leaf' };
      if ((nodes[end - 1] as Node).typeId === token.kindId) end--;
    }
    return end === nodes.length ? nodes : nodes.slice(0, end);
  }
}

/** The fewest nodes a candidate needs to match a pattern node with children (see {@link leastOf}). */
interface Least {
  /** Visible nodes of the candidate's subtree, itself included (`Node.descendantCount`). */
  readonly nodes: number;
  /** The candidate's own children. */
  readonly children: number;
  /** Whether a child of the pattern node has children of its own (then the subtree count turns away more). */
  readonly deep: boolean;
}

const leastCache = new WeakMap<PatternNode, Least>();

/**
 * The fewest nodes a candidate must have to match a pattern node, under `smart` and `cst` (the matcher's `#list`):
 * each goal takes a candidate node of its own, and unmatched candidates are only ever skipped, except a `$$$` run
 * (it may take none) and the unnamed tokens right after one (a run absorbs them rather than matching them).
 */
function leastOf(goal: PatternNode & { type: 'inner' }): Least {
  let least = leastCache.get(goal);
  if (least) return least;
  let nodes = 1;
  let children = 0;
  let deep = false;
  let afterRun = false;
  for (const child of goal.children) {
    if (isEllipsis(child)) {
      afterRun = true;
      continue;
    }
    if (afterRun && isTrivial(child)) continue;
    afterRun = false;
    children++;
    if (child.type === 'inner') {
      deep = true;
      nodes += leastOf(child).nodes;
    } else nodes++;
  }
  least = { nodes, children, deep };
  leastCache.set(goal, least);
  return least;
}
