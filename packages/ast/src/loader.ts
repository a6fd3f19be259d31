import { statSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { setImmediate as yieldToLoop } from 'node:timers/promises';
import { AgentToolsError } from '@agent-tools/core';
import { BackgroundErrors, type BackgroundReporter } from '@agent-tools/core/internal';
import { type FileOutcome, FileSearcher } from './engine/file-search.js';
import type { WorkerStats } from './engine/protocol.js';
import { TreeSitterRuntime } from './engine/runtime.js';
import { isStackOverflow } from './engine/stack-overflow.js';
import { TREE_BYTES_PER_CHAR, TreeCache } from './engine/tree-cache.js';
import { WorkerPool } from './engine/worker-pool.js';
import { AstError } from './errors.js';
import type { LanguageSpec } from './languages.js';
import { type CompileOptions, compilePattern } from './pattern/compile.js';
import type { CompiledPattern } from './pattern/pattern-node.js';
import { compileRule, type RuleInput } from './rules/compile.js';
import type { CompiledRule, Query } from './rules/types.js';
import { errorLines } from './staging/syntax.js';

/** How a {@link TreeSitterLoader} runs. */
export interface TreeSitterLoaderOptions {
  /**
   * Worker threads that parse and match (each with its own wasm instance and cache). `0` searches on the
   * calling thread. Default: the number of CPUs, at most 4.
   */
  readonly workers?: number;
  /**
   * Bytes of parsed trees and file texts kept between searches, all workers together. Default 512 MiB. A search
   * whose files would need more than twice that is not cached at all: a repeat could reuse only a small part of
   * it, so the memory would not be earned back (one search over Go's standard library, 119 MB of source, peaks at
   * about 200 MB instead of 700 MB).
   */
  readonly cacheBytes?: number;
  /**
   * A directory holding every `tree-sitter-<grammar>.wasm` file, replacing the grammar packages this package
   * depends on (see the README for which grammar each language uses).
   */
  readonly grammarDir?: string;
  /** Files larger than this are skipped (and named in the result). Default 2 MiB. */
  readonly maxFileBytes?: number;
  /** A file whose parse takes longer is skipped as unparsed (and named). Default 10 s. */
  readonly parseTimeoutMs?: number;
  /**
   * Matching one file stops after this long: a search answers with the matches found so far and says it is
   * incomplete; an edit leaves the file out. Default 10 s.
   */
  readonly matchTimeoutMs?: number;
  /**
   * A search of at most this many bytes of files runs on the calling thread while no worker has started: its
   * grammar is already loaded there (the pattern was compiled with it), and starting a worker (an isolate, its
   * modules, web-tree-sitter and the grammar again) costs more than parsing that much. Default 512 KiB; `0`
   * sends every search to the workers. Such a search holds the calling thread at most about a second: one that needs
   * longer (a file slow to parse or to match) is handed to the workers, where `parseTimeoutMs` and `matchTimeoutMs`
   * apply in full.
   */
  readonly inlineBytes?: number;
}

/** What a search needs beside the pattern and the files. */
export interface SearchOptions {
  /** Return each matching file's text with its matches (for edits). */
  readonly wantText?: boolean;
  /** Matches per file that get a record, the first ones; the rest are only counted (default: all). */
  readonly keep?: number;
  readonly signal?: AbortSignal;
  /** Hears how many files have been searched so far, as batches finish. */
  readonly onSearched?: (files: number) => void;
}

/** Files searched inline between two yields to the event loop. */
const INLINE_SLICE = 16;
/**
 * The default {@link TreeSitterLoaderOptions.inlineBytes}. A worker's start costs about what parsing 250–500 KB
 * costs on the calling thread; above that, two workers finish sooner.
 */
const INLINE_BYTES = 512 * 1024;
/**
 * How long a search on the calling thread may hold it: per file (its parse, its match) and in all. A small search
 * that needs longer (a rule that walks a deep file whole) is handed to the workers, where the full budgets apply,
 * rather than stopping the harness's event loop for up to `parseTimeoutMs` + `matchTimeoutMs`.
 */
const INLINE_BUDGET_MS = 1000;

/**
 * The `treeSitter` resource: web-tree-sitter with the prebuilt grammars, a pool of search workers and their
 * tree caches. Cheap to create: nothing is loaded until the first pattern is compiled or searched. Dispose it
 * (the registry does) to stop the workers and free the trees.
 */
export class TreeSitterLoader implements AsyncDisposable {
  readonly #options: Required<Omit<TreeSitterLoaderOptions, 'grammarDir'>> & { grammarDir: string | undefined };
  #runtime: TreeSitterRuntime | undefined;
  #inline: FileSearcher | undefined;
  #pool: WorkerPool | undefined;
  #job = 0;
  #disposed = false;
  #sized: { readonly files: readonly string[]; readonly sizes: readonly number[] } | undefined;
  /** Where the workers' bugs outside any search go (a crash while idle, a failed warm-up): the runs that subscribed. */
  readonly #background = new BackgroundErrors();

  constructor(options: TreeSitterLoaderOptions = {}) {
    this.#options = {
      workers: Math.max(0, Math.floor(options.workers ?? Math.min(4, availableParallelism()))),
      cacheBytes: options.cacheBytes ?? 512 * 1024 * 1024,
      grammarDir: options.grammarDir,
      maxFileBytes: options.maxFileBytes ?? 2 * 1024 * 1024,
      parseTimeoutMs: options.parseTimeoutMs ?? 10_000,
      matchTimeoutMs: options.matchTimeoutMs ?? 10_000,
      inlineBytes: Math.max(0, options.inlineBytes ?? INLINE_BYTES),
    };
  }

  /**
   * The calling thread's runtime (compiles patterns, checks rewritten files).
   * @internal Left out of the published types: they would pull in web-tree-sitter's Emscripten globals.
   */
  get runtime(): TreeSitterRuntime {
    this.#assertLive();
    this.#runtime ??= new TreeSitterRuntime(this.#options.grammarDir);
    return this.#runtime;
  }

  /** Worker threads used for searches (0: inline). */
  get workers(): number {
    return this.#options.workers;
  }

  /**
   * Gets ready to search a language: workers already started load its grammar in the background, so that work
   * overlaps the pattern compilation. Given the search's files, it also starts the workers when the search is too
   * large for the calling thread (more than `inlineBytes`); without them it starts none, as the search may be small.
   * Never throws.
   */
  prepare(spec: LanguageSpec, files?: readonly string[]): void {
    if (this.#disposed || this.#options.workers === 0) return;
    try {
      let sizes: readonly number[] | undefined;
      if (!this.#pool) {
        if (!files) return;
        sizes = this.#sizesOf(files);
        if (total(sizes) <= this.#options.inlineBytes) return;
      }
      this.#poolOf(sizes).warm(spec.id);
    } catch (error) {
      // A pool that cannot start (an AstError) reports it on the search itself; anything else is a bug.
      if (!AgentToolsError.isInstance(error)) this.#background.report(error);
    }
  }

  /**
   * Tells `reporter` of a bug outside any search (a worker's crash while idle, a failed warm-up); the factory
   * subscribes the run's `reportError`. Returns the function that stops telling it.
   */
  onBackgroundError(reporter: BackgroundReporter): () => void {
    return this.#background.subscribe(reporter);
  }

  /** Compiles a pattern (see {@link compilePattern}); `options` choose ast-grep's reading, for comparisons. */
  compile(spec: LanguageSpec, pattern: string, options?: CompileOptions): Promise<CompiledPattern> {
    return compilePattern(this.runtime, spec, pattern, options).catch(tooDeep('pattern'));
  }

  /** Checks and compiles a rule (see {@link compileRule}); `options` choose ast-grep's reading of its patterns. */
  compileRule(spec: LanguageSpec, rule: RuleInput, options?: CompileOptions): Promise<CompiledRule> {
    return compileRule(this.runtime, spec, rule, options).catch(tooDeep('rule'));
  }

  /** Searches files for a compiled pattern or rule; the outcomes come back in no particular order. */
  async search(pattern: Query, files: readonly string[], options: SearchOptions = {}): Promise<FileOutcome[]> {
    this.#assertLive();
    if (options.signal?.aborted) throw new AstError('cancelled', 'The search was cancelled.');
    const sizes = this.#sizesOf(files);
    this.#sized = undefined;
    const request = {
      job: ++this.#job,
      pattern,
      cache: fitsCache(sizes, this.#options.cacheBytes),
      wantText: options.wantText ?? false,
      ...(options.keep !== undefined ? { keep: options.keep } : {}),
      maxFileBytes: this.#options.maxFileBytes,
      parseTimeoutMs: this.#options.parseTimeoutMs,
      matchTimeoutMs: this.#options.matchTimeoutMs,
    };
    if (this.#options.workers > 0 && (this.#pool || total(sizes) > this.#options.inlineBytes)) {
      return this.#told(await this.#poolOf(sizes).search(request, files, sizes, options.signal, options.onSearched));
    }
    this.#inline ??= new FileSearcher(this.runtime, new TreeCache(this.#options.cacheBytes));
    const signal = options.signal;
    const stop = (): boolean => signal?.aborted === true || this.#disposed;
    // With workers to hand over to, the calling thread is held briefly; without them, it takes the full budgets.
    const handOver = this.#options.workers > 0;
    const inline = handOver
      ? { ...request, parseTimeoutMs: Math.min(request.parseTimeoutMs, INLINE_BUDGET_MS), matchTimeoutMs: Math.min(request.matchTimeoutMs, INLINE_BUDGET_MS) }
      : request;
    const started = Date.now();
    const out: FileOutcome[] = [];
    for (let i = 0; i < files.length; i += INLINE_SLICE) {
      if (stop()) throw new AstError('cancelled', 'The search was cancelled.');
      out.push(...(await this.#inline.search({ ...inline, files: files.slice(i, i + INLINE_SLICE) }, stop)));
      if (handOver && (out.some((outcome) => overInlineBudget(outcome, inline, request)) || Date.now() - started > INLINE_BUDGET_MS)) {
        return this.#told(await this.#poolOf(sizes).search(request, files, sizes, options.signal, options.onSearched));
      }
      options.onSearched?.(out.length);
      await yieldToLoop();
    }
    if (stop()) throw new AstError('cancelled', 'The search was cancelled.');
    return this.#told(out);
  }

  /**
   * Outcomes as they are, once the call stacks that ran out while matching are told to the harness (each file's
   * answer says it could not be searched; where it happened may be a recursion of ours that a file can reach).
   */
  #told(outcomes: FileOutcome[]): FileOutcome[] {
    for (const outcome of outcomes) {
      if (outcome.stack === undefined) continue;
      this.#background.report(Object.assign(new RangeError(`Matching ${outcome.file} ran out of call stack`), { stack: outcome.stack }));
    }
    return outcomes;
  }

  /**
   * Parses text on the calling thread and returns the 1-based lines of its syntax errors (each outermost error or
   * missing node once), in order; empty when it parses cleanly.
   */
  async syntaxErrorLines(spec: LanguageSpec, text: string): Promise<number[]> {
    const tree = await this.runtime.parse(spec, text, { deadline: Date.now() + this.#options.parseTimeoutMs });
    if (!tree) return [];
    try {
      return errorLines(tree);
    } finally {
      tree.delete();
    }
  }

  /** Cache counters: the inline cache, or one entry per started worker. */
  async cacheStats(): Promise<WorkerStats[]> {
    if (this.#pool) return this.#pool.stats();
    return this.#inline ? [this.#inline.cache.stats()] : [];
  }

  /** Stops the workers and frees every cached tree. Safe to call twice. */
  async dispose(): Promise<void> {
    if (this.#disposed) return;
    this.#disposed = true;
    this.#inline?.cache.clear();
    this.#runtime?.dispose();
    await this.#pool?.dispose();
  }

  [Symbol.asyncDispose](): Promise<void> {
    return this.dispose();
  }

  /** The workers, started for a first search over files of these sizes (their wasm memory sized for its trees). */
  #poolOf(sizes: readonly number[] | undefined): WorkerPool {
    if (this.#pool) return this.#pool;
    // From now on every search goes to the workers: the trees searched inline would only take memory.
    this.#inline?.cache.clear();
    const { workers, cacheBytes } = this.#options;
    const initialMemory = sizes ? initialMemoryOf(sizes, workers, cacheBytes) : undefined;
    this.#pool = new WorkerPool(
      workers,
      { grammarDir: this.#options.grammarDir, cacheBytes: Math.floor(cacheBytes / workers), ...(initialMemory ? { initialMemory } : {}) },
      this.#background,
    );
    return this.#pool;
  }

  /** The files' sizes, kept from {@link prepare} for the {@link search} of the same list (and dropped by it). */
  #sizesOf(files: readonly string[]): readonly number[] {
    if (this.#sized?.files !== files) this.#sized = { files, sizes: sizesOf(files) };
    return this.#sized.sizes;
  }

  #assertLive(): void {
    if (this.#disposed) throw new AstError('disposed', 'The tree-sitter loader was disposed; no further searches can run.');
  }
}

/**
 * Turns the call stack running out while a pattern or rule compiles (a fragment nested a few thousand levels deep)
 * into an answer saying so; anything else is rethrown.
 */
function tooDeep(what: 'pattern' | 'rule'): (error: unknown) => never {
  return (error) => {
    if (!isStackOverflow(error)) throw error;
    throw new AstError(
      what === 'pattern' ? 'invalid_pattern' : 'invalid_rule',
      `The ${what} nests too deeply to compile (the call stack ran out). Write a shallower ${what}: a metavariable such as $A stands for a whole subtree, and a rule's "has" or "inside" with "stopBy": "end" reaches any depth.`,
    );
  };
}

/** Files' sizes in bytes from `stat` (a few milliseconds for thousands of files); an unreadable file counts as empty. */
function sizesOf(files: readonly string[]): number[] {
  return files.map((file) => {
    try {
      return statSync(file).size;
    } catch {
      return 0; // the search names it
    }
  });
}

function total(sizes: readonly number[]): number {
  let bytes = 0;
  for (const size of sizes) bytes += size;
  return bytes;
}

/** Whether a search's trees could mostly stay cached: its files' estimated tree and text bytes are at most twice the cache. */
function fitsCache(sizes: readonly number[], cacheBytes: number): boolean {
  let bytes = 0;
  for (const size of sizes) {
    bytes += size * (TREE_BYTES_PER_CHAR + 2);
    if (bytes > 2 * cacheBytes) return false;
  }
  return true;
}

/** web-tree-sitter's wasm memory before it grows. */
const DEFAULT_WASM_MEMORY = 32 * 1024 * 1024;
/** wasm memory the trees of a file take per byte of source (18.4 measured on the benchmarks' 3000 JavaScript files). */
const TREE_MEMORY_PER_BYTE = 20;

/**
 * The wasm memory each worker starts with for a first search whose trees will be cached (its share of the trees,
 * within its share of the cache), or `undefined` for web-tree-sitter's default: a search too large to cache frees
 * each tree after its file, and a small one fits the default.
 */
function initialMemoryOf(sizes: readonly number[], workers: number, cacheBytes: number): number | undefined {
  if (!fitsCache(sizes, cacheBytes)) return undefined;
  const share = Math.min(total(sizes) * TREE_MEMORY_PER_BYTE, cacheBytes) / Math.max(1, workers);
  return share > DEFAULT_WASM_MEMORY / 2 ? Math.round(DEFAULT_WASM_MEMORY + share) : undefined;
}

/** Creates the `treeSitter` resource. Nothing is loaded until the first search. */
export function createTreeSitterLoader(options: TreeSitterLoaderOptions = {}): TreeSitterLoader {
  return new TreeSitterLoader(options);
}

/** Whether a file's outcome on the calling thread was cut by the shorter inline budget, where the full one may finish. */
function overInlineBudget(outcome: FileOutcome, inline: Budgets, full: Budgets): boolean {
  if (outcome.stopped !== undefined || outcome.status === 'unfinished') return inline.matchTimeoutMs < full.matchTimeoutMs;
  return outcome.status === 'parse-failed' && outcome.reason === `parsing took longer than ${inline.parseTimeoutMs} ms` && inline.parseTimeoutMs < full.parseTimeoutMs;
}

interface Budgets {
  readonly parseTimeoutMs: number;
  readonly matchTimeoutMs: number;
}
