import { UsageError } from '../args.js';

/** Streamable HTTP: not in this build yet. */
export async function serveHttpCommand(..._: unknown[]): Promise<number> {
  throw new UsageError('--http is not available in this build yet; use stdio.');
}
