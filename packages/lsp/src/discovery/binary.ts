import { type BinaryLookup, type BinarySearch, findBinary as findBinaryIn } from '@agent-tools/core/internal';

export type { BinaryLookup, BinarySearch, BinarySource, ResolvedCommand } from '@agent-tools/core/internal';

/**
 * Finds a server's or checker's binary with core's resolution (the project's own copy, then `$PATH`, then a
 * package installed with @agent-tools/lsp), which the debug adapters share.
 */
export function findBinary(search: BinarySearch): BinaryLookup {
  return findBinaryIn({ bundledFrom: 'packages installed with @agent-tools/lsp', ...search });
}
