import type { Tool } from '@modelcontextprotocol/sdk/types.js';

/**
 * The server's `listTools` option, stdio and HTTP alike: `tools/list` is answered from the build's manifest (`listed`),
 * and once it has been answered the packages start loading (the model's turn comes next), so the first call finds
 * them loaded or loading. Without a manifest it answers `undefined`: the session lists from its assembled registry.
 */
export function manifestListing(listed: readonly Tool[] | undefined, load: () => Promise<unknown>): () => readonly Tool[] | undefined {
  return () => {
    if (!listed) return undefined;
    // Preloading only: the session's registry awaits the same load and answers its failure.
    setImmediate(() => void load().catch(() => undefined));
    return listed;
  };
}
