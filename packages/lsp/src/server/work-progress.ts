import { Wakeups } from '../util/wakeups.js';

/** One piece of work a server reports as in progress (`$/progress` between `begin` and `end`). */
export interface ProgressItem {
  readonly title: string;
  readonly message?: string;
  readonly percentage?: number;
  /** When it began (epoch ms). */
  readonly since: number;
}

type Token = string | number;

const MAX_ITEMS = 50;

/**
 * Tokens we hand a server with our own requests. Work reported on them is our question being answered (pyright
 * reports "Finding references"), not the server building its picture of the workspace, so it is not tracked.
 */
const REQUEST_TOKEN_PREFIX = 'agent-tools/request/';
let requestTokens = 0;

/** A fresh work-done token for one of our requests. */
export function requestToken(): string {
  return `${REQUEST_TOKEN_PREFIX}${++requestTokens}`;
}

/**
 * The work-done progress a server reports (indexing, loading packages), so that an answer computed while the
 * server is still building its picture of the workspace is never passed off as complete.
 */
export class WorkProgress {
  readonly #items = new Map<Token, ProgressItem>();
  readonly #wakeups = new Wakeups();
  #begun = 0;
  readonly #titles = new Set<string>();

  /** Work in progress now, oldest first. */
  get active(): readonly ProgressItem[] {
    return [...this.#items.values()];
  }

  /** How many pieces of work have begun since the server started. */
  get begun(): number {
    return this.#begun;
  }

  /** Whether work with a matching title has begun since the server started. */
  seen(title: RegExp): boolean {
    for (const seen of this.#titles) if (title.test(seen)) return true;
    return false;
  }

  /** Records one `$/progress` notification. */
  record(params: unknown): void {
    const { token, value } = (params ?? {}) as { token?: Token; value?: { kind?: string; title?: string; message?: string; percentage?: number } };
    if (token === undefined || !value || typeof value !== 'object') return;
    if (typeof token === 'string' && token.startsWith(REQUEST_TOKEN_PREFIX)) return;
    const previous = this.#items.get(token);
    const details = {
      ...(typeof value.message === 'string' ? { message: value.message } : previous?.message ? { message: previous.message } : {}),
      ...(typeof value.percentage === 'number' ? { percentage: value.percentage } : previous?.percentage !== undefined ? { percentage: previous.percentage } : {}),
    };
    if (value.kind === 'begin') {
      this.#begun++;
      this.#titles.add(value.title ?? value.message ?? 'working');
      if (this.#titles.size > MAX_ITEMS) this.#titles.delete(this.#titles.values().next().value as string);
      this.#items.set(token, { title: value.title ?? value.message ?? 'working', since: Date.now(), ...details });
      if (this.#items.size > MAX_ITEMS) this.#items.delete(this.#items.keys().next().value as Token);
    } else if (value.kind === 'report' && previous) {
      this.#items.set(token, { title: previous.title, since: previous.since, ...details });
    } else if (value.kind === 'end') {
      this.#items.delete(token);
    }
    this.#notify();
  }

  /** Wakes every waiter: something else it waits for changed (the server said it loaded the workspace). */
  wake(): void {
    this.#notify();
  }

  /** Forgets all work (the server is gone). */
  clear(): void {
    this.#items.clear();
    this.#notify();
  }

  /** The work in progress as a model reads it: `indexing 37/112 (33%)`. */
  describe(): string {
    return this.active.map(describeItem).join('; ');
  }

  /** Resolves at the next progress event, at `deadline` (epoch ms), or when the signal aborts. */
  next(deadline: number, signal?: AbortSignal): Promise<void> {
    return this.#wakeups.next(deadline, signal);
  }

  #notify(): void {
    this.#wakeups.wakeAll();
  }
}

/** `indexing 37/112 (33%)`, `Setting up workspace: Loading packages...`. */
export function describeItem(item: ProgressItem): string {
  const message = item.message && item.message !== item.title ? (/^\d/.test(item.message) ? ` ${item.message}` : `: ${item.message}`) : '';
  const percent = item.percentage !== undefined && !(item.message ?? '').includes('%') ? ` (${Math.round(item.percentage)}%)` : '';
  return `${item.title}${message}${percent}`;
}
