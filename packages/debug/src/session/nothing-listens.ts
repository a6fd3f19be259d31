import { formatLimit } from '@agent-tools/core/internal';
import type { AdapterConfig } from '../adapters/adapter.js';
import { DebugError } from '../errors.js';

/** How long `attach` retries a refused port: long enough for a debuggee started a moment ago to listen. */
export const ATTACH_LISTEN_MS = 2000;

/** The answer to an attach that found nothing listening: what was tried, for how long, and how to start a listener. */
export function nothingListens(port: number, triedMs: number, error: string, config: AdapterConfig): DebugError {
  const how = config.attach?.listenHint;
  const tried = formatLimit(Math.max(100, triedMs));
  return new DebugError(
    'adapter_start_failed',
    `Nothing accepts connections on 127.0.0.1:${port}: tried for ${tried} (${error}). ${how ? `To attach with ${config.id}, ${how} (PORT = ${port}), ` : 'Start the debuggee listening on that port, '}then call attach again.`,
  );
}
