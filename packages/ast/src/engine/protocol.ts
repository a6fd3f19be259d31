import type { LanguageId } from '../languages.js';
import type { FileOutcome, SearchRequest } from './file-search.js';

/** What a search worker is started with. */
export interface WorkerConfig {
  readonly grammarDir: string | undefined;
  readonly cacheBytes: number;
  /** Bytes of wasm memory to start with (a first search whose trees will be cached); the default when absent. */
  readonly initialMemory?: number;
}

/** Messages to a search worker. */
export type ToWorker =
  | { readonly type: 'search'; readonly id: number; readonly request: SearchRequest }
  /** Load a grammar now, so the first search does not wait for it. */
  | { readonly type: 'warm'; readonly id: number; readonly language: LanguageId }
  | { readonly type: 'stats'; readonly id: number };

/** Messages from a search worker. */
export type FromWorker =
  | { readonly type: 'result'; readonly id: number; readonly outcomes: readonly FileOutcome[] }
  | { readonly type: 'stats'; readonly id: number; readonly stats: WorkerStats }
  | { readonly type: 'warm'; readonly id: number }
  /** `bug`: the worker threw something other than an AgentToolsError (its stack comes along for the harness's logs). */
  | { readonly type: 'error'; readonly id: number; readonly message: string; readonly bug?: { readonly stack: string } };

/** A worker's cache counters. */
export interface WorkerStats {
  readonly entries: number;
  readonly trees: number;
  readonly bytes: number;
  readonly hits: number;
  readonly misses: number;
  /** Lists of candidate nodes kept with cached trees, for searches rooted at the same kinds. */
  readonly nodeLists: number;
}
