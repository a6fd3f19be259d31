import type { Node, Tree } from 'web-tree-sitter';

/** What is kept of one file: its text, and its tree once it was parsed. */
export interface CacheEntry {
  readonly size: number;
  readonly mtimeMs: number;
  readonly text: string;
  tree: Tree | undefined;
  /** 0-based row of the first syntax error, when the tree has one. */
  errorRow: number | undefined;
  /** Estimated bytes held (text, tree and node lists). */
  bytes: number;
  lastJob: number;
  /**
   * The nodes of some kinds, by the kinds' names (joined): the candidates of an earlier search, ready for the next
   * one rooted at the same kinds (walking a whole tree for them costs about as much as matching them).
   */
  kinds?: Map<string, (Node | null)[]>;
}

/**
 * Bytes a tree-sitter tree takes per UTF-16 code unit of source, measured on Python and TypeScript corpora
 * (a node is about 30 bytes in wasm memory, and real code has a node every four to eight characters).
 */
export const TREE_BYTES_PER_CHAR = 32;

/** Estimated bytes of one remembered node (a web-tree-sitter `Node` object and its start position). */
const NODE_BYTES = 120;
/** Node lists kept per file: a few kinds of search repeated, not every kind ever searched. */
const KIND_LISTS = 4;
/**
 * Parsed trees (and texts) keyed by path, valid while the file keeps its size and modification time, bounded
 * by an estimate of the bytes they hold. Scan-resistant: when full, it evicts only entries the current search
 * has not used, oldest first, and otherwise declines the new entry, so a workspace larger than the budget keeps
 * a stable cached part instead of thrashing.
 */
export class TreeCache {
  readonly #maxBytes: number;
  readonly #entries = new Map<string, CacheEntry>();
  #bytes = 0;
  #job = 0;
  #hits = 0;
  #misses = 0;

  constructor(maxBytes: number) {
    this.#maxBytes = Math.max(0, maxBytes);
  }

  /** Starts a new search: entries used from now on are protected from eviction until the next one. */
  beginJob(job: number): void {
    this.#job = job;
  }

  /** The entry of a file when its size and modification time still match; a stale entry is dropped. */
  get(key: string, size: number, mtimeMs: number): CacheEntry | undefined {
    const entry = this.#entries.get(key);
    if (!entry) {
      this.#misses++;
      return undefined;
    }
    if (entry.size !== size || entry.mtimeMs !== mtimeMs) {
      this.#drop(key, entry);
      this.#misses++;
      return undefined;
    }
    // Re-insert to keep the map in least-recently-used order.
    this.#entries.delete(key);
    this.#entries.set(key, entry);
    entry.lastJob = this.#job;
    this.#hits++;
    return entry;
  }

  /**
   * Stores an entry (or replaces the file's previous one). Returns false when it was declined; the caller
   * still owns the tree then and deletes it when done.
   */
  put(key: string, entry: Omit<CacheEntry, 'bytes' | 'lastJob'>): boolean {
    const bytes = entry.text.length * 2 + (entry.tree ? entry.text.length * TREE_BYTES_PER_CHAR : 0) + 200;
    const existing = this.#entries.get(key);
    if (existing) this.#drop(key, existing, existing.tree !== entry.tree);
    if (bytes > this.#maxBytes) return false;
    if (this.#bytes + bytes > this.#maxBytes) {
      for (const [k, e] of this.#entries) {
        if (this.#bytes + bytes <= this.#maxBytes) break;
        if (e.lastJob >= this.#job) break; // everything newer was used by this search: keep it
        this.#drop(k, e);
      }
    }
    // Node lists are cheap to find again: a tree goes before them.
    if (this.#bytes + bytes > this.#maxBytes) {
      for (const e of this.#entries.values()) {
        if (this.#bytes + bytes <= this.#maxBytes) break;
        this.#dropLists(e);
      }
    }
    if (this.#bytes + bytes > this.#maxBytes) return false;
    this.#entries.set(key, { ...entry, bytes, lastJob: this.#job });
    this.#bytes += bytes;
    return true;
  }

  /** The nodes of some kinds remembered with a file's tree (see {@link rememberKinds}). */
  kindsOf(key: string, kinds: string): (Node | null)[] | undefined {
    return this.#entries.get(key)?.kinds?.get(kinds);
  }

  /**
   * Keeps the nodes of some kinds with a file's cached tree, within the byte budget (nothing is evicted for them);
   * past {@link KIND_LISTS} lists, the entry's oldest goes.
   */
  rememberKinds(key: string, kinds: string, nodes: (Node | null)[]): void {
    const entry = this.#entries.get(key);
    if (!entry?.tree) return;
    const bytes = listBytes(nodes);
    if (this.#bytes + bytes > this.#maxBytes) return;
    entry.kinds ??= new Map();
    const oldest = entry.kinds.size >= KIND_LISTS ? entry.kinds.entries().next().value : undefined;
    if (oldest) {
      entry.kinds.delete(oldest[0]);
      const freed = listBytes(oldest[1]);
      entry.bytes -= freed;
      this.#bytes -= freed;
    }
    entry.kinds.set(kinds, nodes);
    entry.bytes += bytes;
    this.#bytes += bytes;
  }

  /** Counters for tests and benchmarks. */
  stats(): { entries: number; bytes: number; hits: number; misses: number; trees: number; nodeLists: number } {
    let trees = 0;
    let nodeLists = 0;
    for (const e of this.#entries.values()) {
      if (e.tree) trees++;
      nodeLists += e.kinds?.size ?? 0;
    }
    return { entries: this.#entries.size, bytes: this.#bytes, hits: this.#hits, misses: this.#misses, trees, nodeLists };
  }

  clear(): void {
    for (const [k, e] of this.#entries) this.#drop(k, e);
  }

  #dropLists(entry: CacheEntry): void {
    if (!entry.kinds) return;
    for (const list of entry.kinds.values()) {
      const freed = listBytes(list);
      entry.bytes -= freed;
      this.#bytes -= freed;
    }
    entry.kinds = undefined;
  }

  #drop(key: string, entry: CacheEntry, deleteTree = true): void {
    this.#entries.delete(key);
    this.#bytes -= entry.bytes;
    if (deleteTree) entry.tree?.delete();
  }
}

function listBytes(nodes: readonly unknown[]): number {
  return nodes.length * NODE_BYTES + 100;
}
