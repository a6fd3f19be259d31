import type { ServerConnection } from '@jupyterlab/services';
import WebSocket from 'ws';
import { type JupyterEndpoint, normalizeEndpoint } from './endpoint.js';

/** The @jupyterlab/services module. */
export type Services = typeof import('@jupyterlab/services');

let loading: Promise<Services> | undefined;

/**
 * Loads @jupyterlab/services on first use: importing it costs more than half a second, which a harness that
 * registers eval but never calls it should not pay.
 */
export function loadServices(): Promise<Services> {
  loading ??= import('@jupyterlab/services');
  return loading;
}

/**
 * Connection settings for a server: token auth, Node's `ws` for websockets, and a timeout on every REST request
 * (services sets none, and a hung server must not hang a cell).
 */
export function serverSettings(services: Services, endpoint: JupyterEndpoint, requestTimeoutMs: number): ServerConnection.ISettings {
  const { baseUrl, wsUrl, token } = normalizeEndpoint(endpoint);
  const defaults = services.ServerConnection.makeSettings().serializer;
  return services.ServerConnection.makeSettings({
    baseUrl,
    wsUrl,
    token,
    appendToken: true,
    WebSocket: WebSocket as unknown as typeof globalThis.WebSocket,
    fetch: (input: Request | string | URL, init?: RequestInit) =>
      fetch(input, { ...init, signal: init?.signal ?? AbortSignal.timeout(requestTimeoutMs) }),
    serializer: {
      serialize: defaults.serialize,
      deserialize: (data, protocol) => {
        const msg = defaults.deserialize(data, protocol);
        const state = (msg.content as { execution_state?: string }).execution_state;
        if (msg.header.msg_type === 'status' && (state === 'dead' || state === 'restarting')) quietDebugBriefly();
        return msg;
      },
    },
  });
}

let quieted = false;

/**
 * services announces a kernel's death with `console.debug`, which Node prints on stdout, where a harness's own
 * output (JSON answers) goes. The death is reported in eval's answer instead; the line is dropped.
 */
function quietDebugBriefly(): void {
  if (quieted) return;
  quieted = true;
  const debug = console.debug;
  console.debug = () => undefined;
  setImmediate(() => {
    console.debug = debug;
    quieted = false;
  });
}

/**
 * Runs `create` with `console.debug` silenced: services logs every websocket it opens at debug level, which would
 * land in the harness's output on each kernel start.
 */
export function quietly<T>(create: () => T): T {
  const debug = console.debug;
  console.debug = () => undefined;
  try {
    return create();
  } finally {
    console.debug = debug;
  }
}
