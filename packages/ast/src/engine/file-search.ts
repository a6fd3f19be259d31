import { statSync } from 'node:fs';
import { type ReadScratch, readRegularFileIntoSync } from '@agent-tools/core/regular-file';
import type { Node, Tree } from 'web-tree-sitter';
import { type LanguageSpec, languageSpec } from '../languages.js';
import { descendantsOf, findMatches, type MatchRecord, type NodesOf } from '../match/find.js';
import { stringLineStarts } from '../match/regions.js';
import { MatchSink } from '../match/sink.js';
import { findRuleMatches } from '../rules/find.js';
import { isRule, type Query } from '../rules/types.js';
import type { TreeSitterRuntime } from './runtime.js';
import { isStackOverflow } from './stack-overflow.js';
import type { TreeCache } from './tree-cache.js';

/** How one file fared in a search. */
export type FileStatus = 'searched' | 'binary' | 'too-large' | 'unreadable' | 'parse-failed' | 'too-deep' | 'unfinished';

/** The outcome of searching one file, as plain data (it crosses thread boundaries). */
export interface FileOutcome {
  /** Absolute path. */
  readonly file: string;
  readonly status: FileStatus;
  /** The matches that got a record (see {@link SearchRequest.keep}), in document order. */
  readonly matches: readonly MatchRecord[];
  /** Every match in the file, with a record or not (absent: as many as `matches`). */
  readonly count?: number;
  /** Matches of an edit nested inside a recorded one, counted and not recorded. */
  readonly nested?: number;
  /** 0-based row of the first syntax error when the file does not parse cleanly (it is searched anyway). */
  readonly errorRow?: number;
  /** Why the file could not be read or parsed. */
  readonly reason?: string;
  /** For a file whose matching ran out of call stack: where (the harness's logs get it; the model gets `reason`). */
  readonly stack?: string;
  /** The text the matches refer to, when asked for (edits) and there are matches. */
  readonly text?: string;
  /** Offsets of line starts inside multi-line string literals (edits only): a rewrite leaves those lines alone. */
  readonly stringLines?: readonly number[];
  /**
   * Set when matching the file stopped at its time budget (`matchTimeoutMs`): the matches are those found before.
   * (An edit's file is `unfinished` instead, never rewritten in part.)
   */
  readonly stopped?: string;
  /** Whether the file was skipped because it lacks a literal of the pattern (never parsed). */
  readonly prefiltered?: boolean;
}

/** One search request for a list of files. */
export interface SearchRequest {
  readonly job: number;
  /** A pattern, or a rule. */
  readonly pattern: Query;
  readonly files: readonly string[];
  /** Whether new trees and texts go into the cache (false for a search far larger than the cache). */
  readonly cache: boolean;
  readonly wantText: boolean;
  /**
   * Matches per file that get a record, the first ones (the rest are counted): an answer shows at most its offset
   * plus its page of them, an edit stages at most so many. Default: all. An edit (`wantText`) records the outermost
   * of nested matches only.
   */
  readonly keep?: number;
  readonly maxFileBytes: number;
  readonly parseTimeoutMs: number;
  /** Matching one file stops after this long (polled between candidate nodes; 0 stops at the first poll). */
  readonly matchTimeoutMs: number;
}

/** Bytes looked at for a NUL to call a file binary (as git's heuristic does). */
const SNIFF_BYTES = 8000;

/**
 * Searches files one by one with a thread's runtime and cache: stat, reuse the cached tree when the file is
 * unchanged, otherwise read, skip files lacking the pattern's literals, parse, match.
 * @internal Left out of the published types: they would pull in web-tree-sitter's Emscripten globals.
 */
export class FileSearcher {
  readonly #runtime: TreeSitterRuntime;
  readonly #cache: TreeCache;
  /** One read buffer for every file this thread reads (no buffer per file for the garbage collector). */
  readonly #scratch: ReadScratch = { buffer: Buffer.allocUnsafeSlow(64 * 1024) };

  constructor(runtime: TreeSitterRuntime, cache: TreeCache) {
    this.#runtime = runtime;
    this.#cache = cache;
  }

  get cache(): TreeCache {
    return this.#cache;
  }

  async search(request: SearchRequest, stop?: () => boolean): Promise<FileOutcome[]> {
    const spec = languageSpec(request.pattern.language);
    const parser = await this.#runtime.parser(spec);
    this.#cache.beginJob(request.job);
    const out: FileOutcome[] = [];
    for (const file of request.files) {
      if (stop?.()) break;
      out.push(this.#searchFile(spec, parser, file, request, stop));
    }
    return out;
  }

  #searchFile(
    spec: LanguageSpec,
    parser: Parameters<TreeSitterRuntime['parseWith']>[0],
    file: string,
    request: SearchRequest,
    stop: (() => boolean) | undefined,
  ): FileOutcome {
    const { pattern } = request;
    let size: number;
    let mtimeMs: number;
    try {
      const stat = statSync(file);
      if (!stat.isFile()) return { file, status: 'unreadable', matches: [], reason: 'not a regular file' };
      size = stat.size;
      mtimeMs = stat.mtimeMs;
    } catch (error) {
      return { file, status: 'unreadable', matches: [], reason: reasonOf(error) };
    }
    if (size > request.maxFileBytes) {
      return { file, status: 'too-large', matches: [], reason: `${Math.round(size / 1024)} KiB` };
    }
    const key = `${spec.grammar}\u0000${file}`;
    const cached = this.#cache.get(key, size, mtimeMs);
    let text = cached?.text;
    if (text === undefined) {
      let bytes: Buffer;
      try {
        bytes = readRegularFileIntoSync(file, this.#scratch);
      } catch (error) {
        return { file, status: 'unreadable', matches: [], reason: reasonOf(error) };
      }
      // A NUL byte in the first ones tells a binary file, as git does.
      if (bytes.subarray(0, SNIFF_BYTES).includes(0)) return { file, status: 'binary', matches: [] };
      // Literals are looked for in the bytes (UTF-8 both), so a file that lacks one is never decoded, unless its
      // text is to be cached for later searches.
      if (!request.cache && !pattern.literals.every((literal) => bytes.includes(literal))) {
        return { file, status: 'searched', matches: [], prefiltered: true };
      }
      text = bytes.toString('utf8');
    }
    const source = text;
    if (!pattern.literals.every((literal) => source.includes(literal))) {
      if (!cached && request.cache) this.#cache.put(key, { size, mtimeMs, text: source, tree: undefined, errorRow: undefined });
      return { file, status: 'searched', matches: [], prefiltered: true };
    }
    let tree: Tree | undefined = cached?.tree;
    let errorRow = cached?.errorRow;
    let owned = false;
    if (!tree) {
      tree = this.#runtime.parseWith(parser, source, {
        deadline: Date.now() + request.parseTimeoutMs,
        ...(stop ? { stop } : {}),
      });
      if (!tree) {
        return {
          file,
          status: 'parse-failed',
          matches: [],
          reason: stop?.() ? 'cancelled' : `parsing took longer than ${request.parseTimeoutMs} ms`,
        };
      }
      errorRow = tree.rootNode.hasError ? firstErrorRow(tree.rootNode) : undefined;
      owned = !request.cache || !this.#cache.put(key, { size, mtimeMs, text: source, tree, errorRow });
    }
    const remembered: (Node | null)[][] = [];
    try {
      const forEdit = request.wantText;
      const nodesOf: NodesOf = owned ? descendantsOf : (_, kinds) => this.#nodesOf(key, tree, kinds, remembered);
      const sink = new MatchSink<MatchRecord>({ outermost: forEdit, ...(request.keep !== undefined ? { keep: request.keep } : {}) });
      // Matching a file is bounded in time as its parse is: some rules cost the square of a file's depth (an
      // `inside` or `has` looking all the way through 50,000 nested arrays).
      const deadline = Date.now() + request.matchTimeoutMs;
      let late = false;
      const halt = (): boolean => {
        if (stop?.()) return true;
        if (Date.now() >= deadline) late = true;
        return late;
      };
      let matches: MatchRecord[];
      try {
        matches = isRule(pattern)
          ? findRuleMatches(tree, source, pattern, halt, { comments: forEdit, nodesOf, sink })
          : findMatches(tree, source, pattern, halt, { comments: forEdit, nodesOf, sink });
      } catch (error) {
        if (!isStackOverflow(error)) throw error;
        return {
          file,
          status: 'too-deep',
          matches: [],
          reason: 'matching it ran out of call stack: code nested too deeply, or a regex that backtracks too far',
          stack: (error as Error).stack ?? '',
        };
      }
      const stopped = late && !stop?.() ? `matching stopped after ${request.matchTimeoutMs} ms` : undefined;
      if (stopped && forEdit) return { file, status: 'unfinished', matches: [], reason: `matching took longer than ${request.matchTimeoutMs} ms` };
      return {
        file,
        status: 'searched',
        matches,
        ...(stopped ? { stopped } : {}),
        ...(sink.count !== matches.length ? { count: sink.count } : {}),
        ...(sink.nested > 0 ? { nested: sink.nested } : {}),
        ...(errorRow !== undefined ? { errorRow } : {}),
        ...(forEdit && matches.length > 0 ? { text: source, stringLines: stringLineStarts(tree, source) } : {}),
      };
    } finally {
      for (const list of remembered) for (const node of list) if (node) forgetChildren(node);
      if (owned) tree.delete();
    }
  }

  /**
   * The nodes of some kinds in a cached tree, remembered with it: a search rooted at the same kinds again (the same
   * pattern or rule, or another of the same root kind) skips the walk over the whole tree, which costs about as
   * much as matching. `remembered` collects the lists handed out, whose nodes must forget their children after.
   */
  #nodesOf(key: string, tree: Tree, kinds: readonly string[], remembered: (Node | null)[][]): readonly (Node | null)[] {
    const name = kinds.join(',');
    let nodes = this.#cache.kindsOf(key, name);
    if (!nodes) {
      nodes = descendantsOf(tree, kinds);
      this.#cache.rememberKinds(key, name, nodes);
    }
    remembered.push(nodes);
    return nodes;
  }
}

/**
 * web-tree-sitter keeps a node's children once they were asked for: a node remembered with a cached tree lets go
 * of them after each search, so matching does not grow what the cache holds behind its byte count.
 */
function forgetChildren(node: Node): void {
  const held = node as unknown as { _children?: unknown; _namedChildren?: unknown };
  held._children = undefined;
  held._namedChildren = undefined;
}

function firstErrorRow(root: Node): number {
  // A loop down the tree, not recursion: the error may sit 50,000 levels deep.
  let node = root;
  for (;;) {
    if (node.isError || node.isMissing) return node.startPosition.row;
    const next = node.children.find((child) => child.isError || child.isMissing || child.hasError);
    if (!next) return node.startPosition.row;
    node = next;
  }
}

function reasonOf(error: unknown): string {
  const code = (error as { code?: unknown })?.code;
  if (code === 'EACCES' || code === 'EPERM') return 'permission denied';
  if (code === 'ENOENT') return 'it disappeared while searching';
  return error instanceof Error ? error.message : String(error);
}
