import { AsyncLocalStorage } from 'node:async_hooks';
import type { RequestId } from '@modelcontextprotocol/sdk/types.js';

/** One tools/call being answered: its JSON-RPC id, while it runs. */
interface Scope {
  readonly requestId: RequestId;
  live: boolean;
}

/**
 * The tools/call requests a session is answering, so a request the server sends on their behalf (an elicitation)
 * is tied to one of them. Over Streamable HTTP a server request reaches the client on the stream of the client
 * request it relates to; a request related to none needs the optional standalone stream, which a client may never
 * open. The call whose context asks is preferred; when that context is stale (a question queued behind another
 * card is shown from the earlier call's continuation), any call still running carries it.
 */
export class CallScopes {
  readonly #storage = new AsyncLocalStorage<Scope>();
  readonly #live = new Set<Scope>();

  /** Runs a call's work with its request id in scope. */
  async run<T>(requestId: RequestId, work: () => Promise<T>): Promise<T> {
    const scope: Scope = { requestId, live: true };
    this.#live.add(scope);
    try {
      return await this.#storage.run(scope, work);
    } finally {
      scope.live = false;
      this.#live.delete(scope);
    }
  }

  /** The request a server request should relate to now, if any call is running. */
  current(): RequestId | undefined {
    const scope = this.#storage.getStore();
    if (scope?.live) return scope.requestId;
    let latest: Scope | undefined;
    for (const live of this.#live) latest = live;
    return latest?.requestId;
  }
}
