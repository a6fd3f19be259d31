import type { ToolProgress } from '@agent-tools/core';
import { LspError } from '../errors.js';
import type { LanguageServer } from './language-server.js';
import { describeItem } from './work-progress.js';

/** Whether an answer can be trusted as complete, and if not, the sentence that says why. */
export type Completeness = { readonly complete: true } | { readonly complete: false; readonly reason: string };

/** How long a server that will index gets to announce it after its first file is opened. */
const ANNOUNCE_MS = 3000;

/**
 * Waits, within `budgetMs`, until the server is done building its picture of the workspace: no work-done
 * progress (indexing, loading packages) is running, and a server that indexes in the background after its
 * first file is opened (clangd with a compilation database) has begun and finished that index. An answer asked
 * for before then looks complete and is not (clangd: 1 reference, two seconds later 197 in 112 files).
 * Resolves with what is still missing when the budget runs out; never throws except on cancellation.
 */
export async function awaitComplete(
  server: LanguageServer,
  budgetMs: number,
  signal?: AbortSignal,
  report?: (progress: ToolProgress) => void,
): Promise<Completeness> {
  const deadline = Date.now() + budgetMs;
  const index = server.config.backgroundIndex?.({ root: server.root, cwd: server.cwd, binary: server.binary });
  const started = Date.now();
  for (;;) {
    if (signal?.aborted) throw new LspError('cancelled', 'The call was cancelled.');
    const active = server.work.active;
    // Nothing opened yet: the server has nothing to index from, and nothing to wait for.
    const openedAt = server.firstOpenAt;
    const awaitingIndex = index !== undefined && openedAt !== undefined && !server.work.seen(index.title) && Date.now() < openedAt + ANNOUNCE_MS;
    // A server that says when it has loaded the workspace (pyright: "Found N source files") and has not yet.
    const loading = !server.loaded && server.state === 'running';
    if (active.length === 0 && !awaitingIndex && !loading) return { complete: true };
    if (Date.now() >= deadline) {
      const waited = `${Math.round((Date.now() - started) / 100) / 10} s`;
      const what =
        active.length > 0 ? `still ${active.map(describeItem).join('; ')}` : loading ? 'still loading the workspace (it has not said it found every source file)' : 'about to index the workspace';
      return { complete: false, reason: `${server.label} is ${what} after a wait of ${waited}` };
    }
    // The caller's status line shows what the answer waits for (a wait can last the whole budget).
    const first = active[0];
    // The share done goes in the report's numbers, which a status line prints itself.
    const doing = first ? describeItem({ ...first, percentage: undefined }) : loading ? 'loading the workspace' : 'about to index the workspace';
    report?.({
      message: `waiting for ${server.label}: ${doing}`,
      ...(first?.percentage !== undefined ? { progress: Math.round(first.percentage), total: 100 } : {}),
    });
    const wake = awaitingIndex && openedAt !== undefined ? Math.min(deadline, openedAt + ANNOUNCE_MS) : deadline;
    await server.work.next(wake, signal);
  }
}
