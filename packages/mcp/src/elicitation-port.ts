import type { AskOptions, CardOutcome, QuestionCard, QuestionPort } from '@agent-tools/ask';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import type { CallScopes } from './call-scope.js';
import { elicitationForm, formOutcome } from './elicitation-form.js';

/** How long past a card's own timeout the SDK's request timer waits, so the card's timeout is the one that fires. */
const SDK_TIMEOUT_SLACK_MS = 5000;

/**
 * A question port that asks through MCP elicitation (form mode): ask_user cards and permission cards become forms
 * the client shows its human. It is attached only while the client has declared form elicitation; otherwise
 * every card fails closed at once, as with no human at a terminal. The card's timeout is the package's
 * (`@agent-tools/ask` withdraws a card nobody answers, which cancels the request), so a client that never answers
 * cannot hold a call forever.
 */
export class ElicitationPort implements QuestionPort {
  readonly #server: Server;
  readonly #calls: CallScopes;

  constructor(server: Server, calls: CallScopes) {
    this.#server = server;
    this.#calls = calls;
  }

  get attached(): boolean {
    return this.#server.getClientCapabilities()?.elicitation?.form !== undefined;
  }

  get detachedReason(): string {
    return this.#server.getClientCapabilities()
      ? 'the MCP client did not declare the elicitation capability, so the server cannot ask its human'
      : 'the MCP session has not been initialized';
  }

  async ask(card: QuestionCard, options: AskOptions): Promise<CardOutcome> {
    if (!this.attached) return { type: 'unavailable', reason: this.detachedReason };
    const relatedRequestId = this.#calls.current();
    try {
      const result = await this.#server.elicitInput(elicitationForm(card), {
        signal: options.signal,
        timeout: options.timeoutMs + SDK_TIMEOUT_SLACK_MS,
        ...(relatedRequestId === undefined ? {} : { relatedRequestId }),
      });
      return formOutcome(card, result);
    } catch (error) {
      if (error instanceof McpError && error.code === ErrorCode.RequestTimeout) return { type: 'timed_out' };
      if (error instanceof McpError && error.code === ErrorCode.ConnectionClosed) {
        return { type: 'unavailable', reason: 'the MCP client disconnected' };
      }
      throw error;
    }
  }
}
