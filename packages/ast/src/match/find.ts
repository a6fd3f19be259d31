import type { Node, Tree } from 'web-tree-sitter';
import { type CompiledPattern, ERROR_KIND_ID, type PatternNode } from '../pattern/pattern-node.js';
import { headOf, lineRestOf, MAX_ITEM_TEXT, MAX_ITEMS, MAX_RECORD_TEXT } from './bounds.js';
import type { UnnamedCode } from './code-span.js';
import { type Bindings, Matcher } from './matcher.js';
import { type CommentRecord, commentsIn } from './regions.js';
import { MatchSink } from './sink.js';
import { unnamedParts } from './unnamed.js';

export type { UnnamedCode } from './code-span.js';

/** What a metavariable captured, as plain data. */
export interface CaptureRecord {
  /**
   * The source text of the node, or of the run from its first to its last node (separators kept); only its head
   * (`MAX_RECORD_TEXT` characters) when `end - start` is longer, except in the matches of an edit.
   */
  readonly text: string;
  /** UTF-16 offsets into the file text. */
  readonly start: number;
  readonly end: number;
  /** 0-based rows and UTF-16 columns. */
  readonly startRow: number;
  readonly startColumn: number;
  readonly endRow: number;
  readonly endColumn: number;
  /** For a `$$$` run: the texts of its named nodes, in order (the first `MAX_ITEMS`, each cut to its head). */
  readonly items?: readonly string[];
  /** For a `$$$` run with more named nodes than `items` holds: how many it has. */
  readonly itemCount?: number;
  /** When `text` is a head that ends inside a line other than the last: the characters of that line after it. */
  readonly lineRest?: number;
}

/** One match in one file, as plain data (it crosses thread boundaries). */
export interface MatchRecord {
  /** UTF-16 offsets into the file text. */
  readonly start: number;
  readonly end: number;
  /** 0-based rows and UTF-16 columns. */
  readonly startRow: number;
  readonly startColumn: number;
  readonly endRow: number;
  readonly endColumn: number;
  /** The matched code; only its head (`MAX_RECORD_TEXT` characters) when `end - start` is longer, except in the matches of an edit. */
  readonly text: string;
  readonly captures: Readonly<Record<string, CaptureRecord>>;
  /** When `text` is a head that ends inside a line other than the last: the characters of that line after it. */
  readonly lineRest?: number;
  /** What each unnamed `$$$` of the pattern took, in the order they were matched. */
  readonly anonymous: readonly CaptureRecord[];
  /** The comments inside the match (searches for edits only). */
  readonly comments?: readonly CommentRecord[];
  /**
   * Where the part the pattern names ends, when unnamed code follows it up to the match's end (children after
   * the pattern's last, such as a Python `else:` after the `except` a pattern names). Edits only.
   */
  readonly tail?: number;
  /** Unnamed code in the middle of the match (edits only): rewriting the whole match would delete it. */
  readonly unnamed?: readonly UnnamedCode[];
}

/**
 * Every match of a compiled pattern in a tree, in document order, nested matches included (as the ast-grep
 * CLI reports them). `stop` is polled between candidates; `comments` records the comments inside each match; `sink`
 * decides which matches get a record (all by default) and counts them all.
 * @internal Left out of the published types: they would pull in web-tree-sitter's Emscripten globals.
 */
export function findMatches(
  tree: Tree,
  src: string,
  pattern: CompiledPattern,
  stop?: () => boolean,
  options: { readonly comments?: boolean; readonly nodesOf?: NodesOf; readonly sink?: MatchSink<MatchRecord> } = {},
): MatchRecord[] {
  const forEdit = options.comments === true;
  const matcher = new Matcher(pattern.root, src, pattern.deviations, { trace: forEdit });
  const sink = options.sink ?? new MatchSink<MatchRecord>();
  const out = sink.records;
  const root = pattern.root;
  // Other readings of the pattern (`sizeof($T)` as the size of a type): a node matching any of them matches.
  const matchers = [matcher, ...(pattern.alternatives ?? []).map((alt) => new Matcher(alt, src, pattern.deviations, { trace: forEdit }))];
  const visit = (node: Node, kindId?: number): void => {
    const hit = matchers.find((m) => m.match(node, kindId));
    if (!hit || !sink.wants(node.startIndex, node.endIndex)) return;
    const found = record(node, src, hit.bindings);
    if (!forEdit) {
      sink.add(found);
      return;
    }
    const parts = unnamedParts(node, hit.bindings.unnamed, src);
    sink.add({
      ...found,
      comments: commentsIn(node, src),
      ...(parts.tail !== undefined ? { tail: parts.tail } : {}),
      ...(parts.inside.length ? { unnamed: parts.inside } : {}),
    });
  };
  // An error leaf (a fragment that is one bad token) is looked for among error nodes only, as in ast-grep.
  if (root.type === 'leaf' && root.kindId === ERROR_KIND_ID) {
    for (const node of tree.rootNode.descendantsOfType('ERROR')) if (node) visit(node);
    return out;
  }
  if (root.type === 'meta' || root.kindId === ERROR_KIND_ID) {
    // Any node is a candidate: walk the whole tree (rare, and slow in wasm).
    const namedOnly = root.type === 'meta' && root.meta.kind === 'single' && root.meta.named;
    const cursor = tree.walk();
    try {
      let count = 0;
      for (;;) {
        if (!namedOnly || cursor.nodeIsNamed) visit(cursor.currentNode);
        if ((++count & 1023) === 0 && stop?.()) break;
        if (cursor.gotoFirstChild()) continue;
        let moved = false;
        while (!moved) {
          if (cursor.gotoNextSibling()) moved = true;
          else if (!cursor.gotoParent()) return out;
        }
      }
    } finally {
      cursor.delete();
    }
    return out;
  }
  const top = tree.rootNode;
  const anchored = anchoredCandidates(top, src, pattern);
  if (anchored) {
    for (let i = 0; i < anchored.length; i++) {
      if ((i & 15) === 15 && stop?.()) break;
      visit(anchored[i] as Node);
    }
    return out;
  }
  // Other readings may have another root (C's `($T)(x)`: a call, or a cast).
  const roots = [root, ...(pattern.alternatives ?? [])].filter((r): r is PatternNode & { type: 'inner' | 'leaf' } => r.type !== 'meta');
  const kindIds = new Set(roots.map((r) => r.kindId));
  // The walk includes the tree's root (`descendantsOfType` starts at the node it is called on).
  const names = [...new Set(roots.map((r) => r.kind))];
  const candidates = (options.nodesOf ?? descendantsOf)(tree, names);
  // The nodes found by a kind's name are of that kind unless the grammar gives the name to several kinds: then
  // each is asked for its kind (a wasm call).
  const only = kindIds.size === 1 ? onlyKindNamed(tree.language.types, names) : undefined;
  const known = only !== undefined && kindIds.has(only) ? only : undefined;
  for (let i = 0; i < candidates.length; i++) {
    const node = candidates[i] as Node;
    if (known === undefined && !kindIds.has(node.typeId)) continue;
    if ((i & 15) === 15 && stop?.()) break;
    visit(node, known);
  }
  return out;
}

const kindsByName = new WeakMap<readonly string[], Map<string, number | undefined>>();

/**
 * The one kind id a grammar gives a name, or `undefined` when it gives it to several (aliases) or when several
 * names are asked for. `types` is the grammar's list of kind names by id (`Language.types`).
 * @internal
 */
export function onlyKindNamed(types: readonly string[], names: readonly string[]): number | undefined {
  if (names.length !== 1) return undefined;
  const name = names[0] as string;
  let known = kindsByName.get(types);
  if (!known) {
    known = new Map();
    kindsByName.set(types, known);
  }
  if (known.has(name)) return known.get(name);
  let id: number | undefined;
  let count = 0;
  types.forEach((type, i) => {
    if (type === name) {
      id = i;
      count++;
    }
  });
  const only = count === 1 ? id : undefined;
  known.set(name, only);
  return only;
}

/**
 * The nodes of some kinds in a tree, in document order (the candidates of a search): a cache of trees may keep
 * them for the next search rooted at the same kinds.
 * @internal
 */
export type NodesOf = (tree: Tree, kinds: readonly string[]) => readonly (Node | null)[];

/**
 * {@link NodesOf} by a walk over the whole tree.
 * @internal
 */
export function descendantsOf(tree: Tree, kinds: readonly string[]): (Node | null)[] {
  return tree.rootNode.descendantsOfType([...kinds]);
}

/** Occurrences of the anchor text per character of source above which a walk over the tree is cheaper. */
const ANCHOR_DENSITY = 1 / 200;

/**
 * The candidates reached from the occurrences of the pattern's anchor in the text (each the anchor leaf's
 * `depth`-th ancestor), in document order; `undefined` when the anchor is too common for that to pay off.
 * Occurrences inside strings and comments fall away because the leaf there has another kind.
 * @internal
 */
export function anchoredCandidates(top: Node, src: string, pattern: CompiledPattern): Node[] | undefined {
  const anchor = pattern.anchor;
  if (!anchor || pattern.root.type === 'meta' || pattern.root.kindId === ERROR_KIND_ID) return undefined;
  const positions: number[] = [];
  const limit = Math.max(16, src.length * ANCHOR_DENSITY);
  for (let i = src.indexOf(anchor.text); i >= 0; i = src.indexOf(anchor.text, i + 1)) {
    positions.push(i);
    if (positions.length > limit) return undefined;
  }
  const kindIds = new Set([pattern.root.kindId, ...(pattern.alternatives ?? []).map((a) => (a.type === 'meta' ? -1 : a.kindId))]);
  const seen = new Set<string>();
  const found: Node[] = [];
  const length = anchor.text.length;
  for (const at of positions) {
    // The smallest node holding the occurrence: the anchor leaf itself, or an unnamed token whose span holds more
    // than its text (bash's `$(` inside a string takes the indentation before it). An empty range would be
    // ambiguous where two tokens touch (`$prev,`), so the range is the occurrence itself.
    let node: Node | null = top.descendantForIndex(at, at + length);
    if (!node || node.typeId !== anchor.kindId || node.startIndex > at || node.endIndex < at + length) continue;
    for (let d = 0; d < anchor.depth && node; d++) node = node.parent;
    if (!node || !kindIds.has(node.typeId)) continue;
    const key = `${node.startIndex}:${node.endIndex}:${node.id}`;
    if (seen.has(key)) continue;
    seen.add(key);
    found.push(node);
  }
  // Document order, outer before inner.
  return found.sort((a, b) => a.startIndex - b.startIndex || b.endIndex - a.endIndex);
}

/**
 * A match as plain data, with what the bindings captured.
 * @internal
 */
export function record(node: Node, src: string, bindings: Bindings): MatchRecord {
  const entries: [string, CaptureRecord][] = [];
  for (const [name, captured] of bindings.singles) {
    const start = captured.startPosition;
    const end = captured.endPosition;
    const text = headOf(src, captured.startIndex, captured.endIndex, MAX_RECORD_TEXT);
    const rest = lineRestOf(src, captured.startIndex, captured.endIndex, end.row - start.row + 1, text);
    entries.push([
      name,
      {
        text,
        ...(rest !== undefined ? { lineRest: rest } : {}),
        start: captured.startIndex,
        end: captured.endIndex,
        startRow: start.row,
        startColumn: start.column,
        endRow: end.row,
        endColumn: end.column,
      },
    ]);
  }
  for (const [name, nodes] of bindings.multis) entries.push([name, runRecord(nodes, node, src)]);
  // In the order they appear in the code.
  entries.sort((a, b) => a[1].start - b[1].start);
  const captures: Record<string, CaptureRecord> = Object.fromEntries(entries);
  const start = node.startPosition;
  const end = node.endPosition;
  const text = headOf(src, node.startIndex, node.endIndex, MAX_RECORD_TEXT);
  const rest = lineRestOf(src, node.startIndex, node.endIndex, end.row - start.row + 1, text);
  return {
    start: node.startIndex,
    end: node.endIndex,
    startRow: start.row,
    startColumn: start.column,
    endRow: end.row,
    endColumn: end.column,
    text,
    ...(rest !== undefined ? { lineRest: rest } : {}),
    captures,
    anonymous: bindings.anonymous.map((nodes) => runRecord(nodes, node, src)),
  };
}

/** A `$$$` run as plain data; an empty run sits where the match starts. */
function runRecord(nodes: readonly Node[], match: Node, src: string): CaptureRecord {
  const first = nodes[0];
  const last = nodes[nodes.length - 1];
  const named = nodes.filter((n) => n.isNamed);
  const items = named.slice(0, MAX_ITEMS).map((n) => headOf(src, n.startIndex, n.endIndex, MAX_ITEM_TEXT));
  const from = first ?? match;
  const to = last ?? match;
  const start = from.startPosition;
  const end = last ? to.endPosition : start;
  const text = first && last ? headOf(src, first.startIndex, last.endIndex, MAX_RECORD_TEXT) : '';
  const rest = first && last ? lineRestOf(src, first.startIndex, last.endIndex, end.row - start.row + 1, text) : undefined;
  return {
    text,
    ...(rest !== undefined ? { lineRest: rest } : {}),
    start: from.startIndex,
    end: last ? last.endIndex : from.startIndex,
    startRow: start.row,
    startColumn: start.column,
    endRow: end.row,
    endColumn: end.column,
    items,
    ...(named.length > items.length ? { itemCount: named.length } : {}),
  };
}
