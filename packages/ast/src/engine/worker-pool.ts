import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { BackgroundErrors } from '@agent-tools/core/internal';
import { AstError } from '../errors.js';
import type { LanguageId } from '../languages.js';
import type { FileOutcome, SearchRequest } from './file-search.js';
import type { FromWorker, ToWorker, WorkerConfig, WorkerStats } from './protocol.js';

/** Files per message: small enough that a cancelled search stops soon, large enough to keep workers busy. */
const BATCH = 32;
/** Files per message from the shared queue of new files, at the end of a search (see `#runLane`). */
const SHARED_BATCH = 16;
/** Files per message from the shared queue at most, at the start of a large search. */
const MAX_SHARED_BATCH = 128;
/** Files whose worker is remembered. */
const MAX_HOMES = 200_000;
/** Batches in flight per worker, so a worker never waits for its next message. */
const IN_FLIGHT = 2;
/** Files at least this large are big: their trees take megabytes of a worker's wasm memory. */
const BIG_FILE = 64 * 1024;
/**
 * Files at least this large are huge: a tree of one takes 10 MB or more of a worker's wasm memory (30 MB for a
 * 900 KB Go file), which a wasm memory never gives back. A worker that parsed one for a search that caches nothing
 * is replaced once it is past its huge files (see {@link WorkerPool.search}).
 */
const HUGE_FILE = 256 * 1024;
/**
 * A worker's young generation, in MB. V8's default (up to 48 MB) fills with each file's text and the nodes of
 * its matching before a collection; that garbage is short-lived, so a small young generation keeps a worker's
 * heap at a few megabytes without slowing a search (2 rather than 4: 5 MB less at the peak of a search over Go's
 * standard library, the same CPU time; 1 is no smaller).
 */
const YOUNG_GENERATION_MB = 2;

interface Pending {
  resolve(message: FromWorker): void;
  reject(error: Error): void;
}

interface Slot {
  readonly worker: Worker;
  readonly pending: Map<number, Pending>;
  /** The replies awaited, settled or not. */
  readonly flights: Set<Promise<FromWorker>>;
  dead: boolean;
  /** It was sent a search that caches: its cache may hold trees, so it is never replaced. */
  keeps: boolean;
  /** It parsed a huge file for a search that caches nothing: its wasm memory is that tree's size for good. */
  grown: boolean;
  /** Its replacement, once decided: its batches in flight finish, then it is terminated. */
  retired?: Promise<void>;
}

/**
 * Search worker threads, started on first use. A file goes back to the worker that searched it before, so
 * each worker's tree cache stays warm for the files it owns. Idle workers do not keep the process alive.
 */
export class WorkerPool {
  readonly #size: number;
  readonly #config: WorkerConfig;
  readonly #slots: (Slot | undefined)[];
  /** The worker that searched a file last, whose cache may hold its tree. */
  readonly #home = new Map<string, number>();
  #nextId = 1;
  #disposed = false;
  /** Where a worker's bug outside any search goes (its crash while idle, a failed warm-up). */
  readonly #background: BackgroundErrors | undefined;

  constructor(size: number, config: WorkerConfig, background?: BackgroundErrors) {
    this.#size = Math.max(1, size);
    this.#config = config;
    this.#background = background;
    this.#slots = new Array<Slot | undefined>(this.#size).fill(undefined);
  }

  get size(): number {
    return this.#size;
  }

  /**
   * Searches files across the workers; the outcomes come back in no particular order. A file a worker has
   * searched before goes back to that worker (its cache holds the tree); new files are handed out from a
   * shared queue to whichever worker is free, so uneven file sizes do not leave one worker doing the most.
   *
   * New big files (`sizes` in bytes, in the order of `files`) all go to the first worker, largest first, up to
   * its share of the bytes: a wasm instance's memory never shrinks, so each worker keeps the size of the largest
   * tree it ever built (30 MB for a 900 KB Go file), and one worker holding the big trees keeps the others small.
   *
   * A worker that parsed a huge file for a search that caches nothing is replaced by a fresh one before its next
   * batch without a huge file, and terminated when the search ends (a later search starts another): what it holds
   * is garbage by then, and only a new wasm instance gives that memory back to the system.
   */
  async search(
    request: Omit<SearchRequest, 'files'>,
    files: readonly string[],
    sizes: readonly number[],
    signal?: AbortSignal,
    onSearched?: (files: number) => void,
  ): Promise<FileOutcome[]> {
    const own: string[][] = Array.from({ length: this.#size }, () => []);
    const shared: string[] = [];
    const big: number[] = [];
    const huge = new Set<string>();
    let total = 0;
    files.forEach((file, i) => {
      const size = sizes[i] ?? 0;
      total += size;
      if (size >= HUGE_FILE) huge.add(file);
      const home = this.#home.get(file);
      if (home !== undefined) own[home]?.push(file);
      else if (size >= BIG_FILE && this.#size > 1) big.push(i);
      else shared.push(file);
    });
    big.sort((a, b) => (sizes[b] ?? 0) - (sizes[a] ?? 0));
    let first = 0;
    for (const i of big) {
      const file = files[i] as string;
      first += sizes[i] ?? 0;
      if (first <= total / this.#size) {
        own[0]?.push(file);
        if (request.cache) this.#remember(file, 0);
      } else shared.push(file);
    }
    const queue = { files: shared, next: 0 };
    let searched = 0;
    const counted = (count: number): void => {
      searched += count;
      onSearched?.(searched);
    };
    const results = await Promise.all(own.map((mine, index) => this.#runLane(index, request, mine, queue, huge, signal, counted)));
    await Promise.all(this.#slots.map((slot, index) => (slot?.grown ? this.#retire(index, slot) : undefined)));
    return results.flat();
  }

  /**
   * Starts every worker and has it load a grammar, without waiting: a search that begins with this overlaps
   * the workers' start with its own pattern compilation and directory walk.
   */
  warm(language: LanguageId): void {
    if (this.#disposed) return;
    for (let i = 0; i < this.#size; i++) {
      const slot = this.#slot(i);
      this.#send(slot, { type: 'warm', id: this.#nextId++, language }).then(
        // A grammar that does not load is the search's to report (it loads it again); a bug is reported here.
        (reply) => {
          if (reply.type === 'error' && reply.bug) this.#bug(Object.assign(new Error(`A search worker failed: ${reply.message}`), { stack: reply.bug.stack }));
        },
        // The worker died or the pool was disposed: the next search starts another and says so if it fails.
        () => undefined,
      );
    }
  }

  /** Cache counters of every started worker. */
  async stats(): Promise<WorkerStats[]> {
    const out: WorkerStats[] = [];
    for (let i = 0; i < this.#size; i++) {
      const slot = this.#slots[i];
      if (!slot || slot.dead) continue;
      const reply = await this.#send(slot, { type: 'stats', id: this.#nextId++ });
      if (reply.type === 'stats') out.push(reply.stats);
    }
    return out;
  }

  /** Terminates every worker; their trees go with them. */
  async dispose(): Promise<void> {
    this.#disposed = true;
    const slots = this.#slots.splice(0).filter((s): s is Slot => s !== undefined);
    await Promise.all(
      slots.map(async (slot) => {
        slot.dead = true;
        for (const pending of slot.pending.values()) pending.reject(new AstError('disposed', 'The search was stopped: the run ended.'));
        slot.pending.clear();
        await slot.worker.terminate();
      }),
    );
  }

  /** One worker's part of a search: its own files first, then batches from the shared queue. */
  async #runLane(
    index: number,
    request: Omit<SearchRequest, 'files'>,
    mine: readonly string[],
    queue: { readonly files: readonly string[]; next: number },
    huge: ReadonlySet<string>,
    signal: AbortSignal | undefined,
    counted: (files: number) => void,
  ): Promise<FileOutcome[]> {
    if (mine.length === 0 && queue.files.length === 0) return [];
    let slot = this.#slot(index);
    if (request.cache) slot.keeps = true;
    const out: FileOutcome[] = [];
    let ownNext = 0;
    let failed = false;
    const take = (): string[] => {
      if (ownNext < mine.length) {
        // A batch holds huge files only, or none: a worker's replacement comes right after its huge files.
        const first = huge.has(mine[ownNext] as string);
        let end = ownNext + 1;
        while (end < mine.length && end < ownNext + BATCH && huge.has(mine[end] as string) === first) end++;
        const batch = mine.slice(ownNext, end);
        ownNext = end;
        return batch;
      }
      // Batches shrink as the queue empties: large ones while much is left (a message and its answer cost about as
      // much as searching a small file), small ones at the end keep the workers finishing together.
      const left = queue.files.length - queue.next;
      const size = Math.max(SHARED_BATCH, Math.min(MAX_SHARED_BATCH, Math.floor(left / (this.#size * IN_FLIGHT * 4))));
      const batch = queue.files.slice(queue.next, queue.next + size);
      queue.next += batch.length;
      // Where a file went matters only for a cache that keeps its tree.
      if (request.cache) for (const file of batch) this.#remember(file, index);
      return batch;
    };
    /** The batch with huge files in flight, in a search that may replace the worker after it. */
    let hugeFlight: Promise<unknown> | undefined;
    const sendNext = (): Promise<void> | undefined => {
      if (failed) return undefined;
      const batch = take();
      if (batch.length === 0) return undefined;
      const hasHuge = batch.some((file) => huge.has(file));
      // A batch after huge ones waits for their answer: the worker may have grown for them, and then gives way to a
      // fresh one (as does one retired meanwhile) instead of searching on with that memory.
      const after = !hasHuge && hugeFlight ? hugeFlight.catch(() => undefined) : Promise.resolve();
      let used = slot;
      const sent = after
        .then(() => (slot.retired !== undefined || (slot.grown && !hasHuge) ? this.#renew(index, slot) : slot))
        .then((fresh) => {
          slot = used = fresh;
          return this.#send(used, { type: 'search', id: this.#nextId++, request: { ...request, files: batch } }, signal);
        });
      if (hasHuge && !request.cache && !slot.keeps) hugeFlight = sent;
      return sent.then(
          (reply) => {
            if (reply.type === 'error') {
              failed = true;
              // A bug in the worker stays a bug here (not an answer), so the registry reports it to onError.
              if (reply.bug) throw Object.assign(new Error(`A search worker failed: ${reply.message}`), { stack: reply.bug.stack });
              throw new AstError('worker_failed', `A search worker failed: ${reply.message}`);
            }
            if (reply.type === 'result') {
              out.push(...reply.outcomes);
              if (!used.keeps && reply.outcomes.some((o) => huge.has(o.file) && parsed(o))) used.grown = true;
            }
            counted(batch.length);
            return sendNext();
          },
          (error: unknown) => {
            failed = true;
            throw error;
          },
        );
    };
    const lanes: Promise<void>[] = [];
    for (let i = 0; i < IN_FLIGHT; i++) {
      const lane = sendNext();
      if (lane) lanes.push(lane);
    }
    await Promise.all(lanes);
    return out;
  }

  /** The worker of a lane once `slot` (replaced, see {@link search}) has finished its batches and is gone. */
  async #renew(index: number, slot: Slot): Promise<Slot> {
    await this.#retire(index, slot);
    return this.#slot(index);
  }

  /** Terminates a worker once the batches sent to it have come back; its lane starts a fresh one when needed. */
  #retire(index: number, slot: Slot): Promise<void> {
    slot.retired ??= Promise.allSettled([...slot.flights]).then(async () => {
      slot.dead = true;
      if (this.#slots[index] === slot) this.#slots[index] = undefined;
      await slot.worker.terminate();
    });
    return slot.retired;
  }

  /** Records which worker owns a file's cache entry, forgetting the oldest when the map grows too large. */
  #remember(file: string, index: number): void {
    this.#home.delete(file);
    this.#home.set(file, index);
    if (this.#home.size > MAX_HOMES) {
      const oldest = this.#home.keys().next();
      if (!oldest.done) this.#home.delete(oldest.value);
    }
  }

  #slot(index: number): Slot {
    if (this.#disposed) throw new AstError('disposed', 'The tree-sitter loader was disposed; no further searches can run.');
    const existing = this.#slots[index];
    if (existing && !existing.dead) return existing;
    const worker = new Worker(workerScript(), {
      workerData: this.#config,
      name: `agent-tools-ast-${index}`,
      resourceLimits: { maxYoungGenerationSizeMb: YOUNG_GENERATION_MB },
    });
    const slot: Slot = { worker, pending: new Map(), flights: new Set(), dead: false, keeps: false, grown: false };
    worker.unref();
    worker.on('message', (message: FromWorker) => {
      const pending = slot.pending.get(message.id);
      if (!pending) return; // a cancelled batch
      slot.pending.delete(message.id);
      this.#refresh(slot);
      pending.resolve(message);
    });
    const fail = (error: Error): void => {
      slot.dead = true;
      for (const pending of slot.pending.values()) pending.reject(error);
      slot.pending.clear();
    };
    worker.on('error', (error) => {
      // An uncaught throw in the worker is a bug: told once, whether or not a search was waiting (which fails as before).
      this.#bug(error);
      fail(new AstError('worker_failed', `A search worker crashed: ${error.message}`, { cause: error }));
    });
    worker.on('exit', (code) => {
      if (!slot.dead) fail(new AstError('worker_failed', `A search worker exited unexpectedly (code ${code}).`));
    });
    this.#slots[index] = slot;
    return slot;
  }

  #send(slot: Slot, message: ToWorker, signal?: AbortSignal): Promise<FromWorker> {
    if (slot.dead) return Promise.reject(new AstError('worker_failed', 'A search worker is gone; try again.'));
    if (signal?.aborted) return Promise.reject(new AstError('cancelled', 'The search was cancelled.'));
    const flight = new Promise<FromWorker>((resolve, reject) => {
      const onAbort = (): void => {
        slot.pending.delete(message.id);
        this.#refresh(slot);
        reject(new AstError('cancelled', 'The search was cancelled.'));
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      slot.pending.set(message.id, {
        resolve: (reply) => {
          signal?.removeEventListener('abort', onAbort);
          resolve(reply);
        },
        reject: (error) => {
          signal?.removeEventListener('abort', onAbort);
          reject(error);
        },
      });
      this.#refresh(slot);
      slot.worker.postMessage(message);
    });
    slot.flights.add(flight);
    const landed = (): void => {
      slot.flights.delete(flight);
    };
    flight.then(landed, landed);
    return flight;
  }

  #bug(error: unknown): void {
    if (this.#background) this.#background.report(error);
    else process.emitWarning(error instanceof Error ? error : new Error(String(error)), { code: 'AGENT_TOOLS_BACKGROUND_ERROR' });
  }

  /** A worker with work keeps the process alive; an idle one does not. */
  #refresh(slot: Slot): void {
    if (slot.pending.size > 0) slot.worker.ref();
    else slot.worker.unref();
  }
}

/**
 * The worker script next to this module; when running from TypeScript sources (the package's tests), the
 * built one, since Node 20 cannot start a worker from a `.ts` file.
 */
function workerScript(): URL {
  const here = new URL('./search-worker.js', import.meta.url);
  if (existsSync(fileURLToPath(here))) return here;
  const built = new URL('../../dist/engine/search-worker.js', import.meta.url);
  if (existsSync(fileURLToPath(built))) return built;
  throw new AstError(
    'worker_failed',
    'The search worker script is missing; build @agent-tools/ast first (pnpm turbo run build --filter @agent-tools/ast).',
  );
}

/** Whether searching a file built its tree (parsed it, or began to), rather than skipping it unread or unparsed. */
function parsed(outcome: FileOutcome): boolean {
  return outcome.status === 'parse-failed' || (outcome.status === 'searched' && outcome.prefiltered !== true);
}
