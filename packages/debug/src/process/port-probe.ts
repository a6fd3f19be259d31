import { connect } from 'node:net';
import { formatLimit } from '@agent-tools/core/internal';

/** What a probe of a loopback port found. */
export type PortProbe = { readonly listening: true } | { readonly listening: false; readonly error: string; readonly triedMs: number };

/**
 * Whether something accepts connections on 127.0.0.1:`port`, retrying a refusal every 100 ms for up to `budgetMs`
 * (the model often starts a debuggee and attaches at once). The probe's connection is closed at once.
 */
export async function probePort(port: number, budgetMs: number): Promise<PortProbe> {
  const started = Date.now();
  for (;;) {
    const error = await tryConnect(port, Math.max(200, budgetMs));
    if (error === undefined) return { listening: true };
    const triedMs = Date.now() - started;
    if (triedMs >= budgetMs || !/ECONNREFUSED/.test(error)) return { listening: false, error, triedMs };
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

function tryConnect(port: number, timeoutMs: number): Promise<string | undefined> {
  return new Promise((resolve) => {
    const socket = connect({ port, host: '127.0.0.1' });
    const timer = setTimeout(() => {
      socket.destroy();
      resolve(`no answer within ${formatLimit(timeoutMs)}`);
    }, timeoutMs);
    socket.once('connect', () => {
      clearTimeout(timer);
      socket.destroy();
      resolve(undefined);
    });
    socket.once('error', (error: NodeJS.ErrnoException) => {
      clearTimeout(timer);
      resolve(error.code ?? error.message);
    });
  });
}
