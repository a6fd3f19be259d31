/** Where a Jupyter server listens and how to authenticate to it. */
export interface JupyterEndpoint {
  /** The server's base URL, `http://127.0.0.1:8888/` (a trailing path prefix is kept). */
  readonly baseUrl: string;
  /** The websocket base URL; derived from `baseUrl` when omitted. */
  readonly wsUrl?: string;
  /** The server's token. */
  readonly token: string;
}

/** The endpoint with its URLs normalized (trailing slash, websocket URL derived). */
export function normalizeEndpoint(endpoint: JupyterEndpoint): Required<JupyterEndpoint> {
  const baseUrl = endpoint.baseUrl.endsWith('/') ? endpoint.baseUrl : `${endpoint.baseUrl}/`;
  const wsUrl = endpoint.wsUrl ?? baseUrl.replace(/^http/, 'ws');
  return { baseUrl, wsUrl: wsUrl.endsWith('/') ? wsUrl : `${wsUrl}/`, token: endpoint.token };
}
