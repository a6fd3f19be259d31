import { errorSentence, type ToolCaller } from '@agent-tools/core';
import { parseBridgePrompt, runBridgeRequest } from './bridge.js';
import { encodeReply } from './bridge-transfer.js';

/** What the host pauses while a bridged call runs: the cell's budgets. */
export interface Pausable {
  pause(): void;
  resume(): void;
}

/**
 * The host's side of the tool bridge for one running cell: answers each input_request, running bridged calls
 * through the registry (the budgets paused meanwhile), handing a large reply out in parts as the kernel asks for
 * them, and giving a plain `input()` an empty line.
 */
export class BridgeHost {
  /** Tool calls the cell made. */
  calls = 0;
  /** Plain `input()` requests, which nobody can answer. */
  plainInputs = 0;
  readonly #caller: ToolCaller;
  readonly #signal: AbortSignal;
  readonly #budgets: Pausable;
  #parts: readonly string[] = [];

  readonly #onBug: ((error: unknown) => void) | undefined;

  /** `onBug`: told of a throw while answering a request (nothing here throws by design: it is a bug). */
  constructor(caller: ToolCaller, signal: AbortSignal, budgets: Pausable, onBug?: (error: unknown) => void) {
    this.#caller = caller;
    this.#signal = signal;
    this.#budgets = budgets;
    this.#onBug = onBug;
  }

  /** The input_reply value for an input_request's prompt. */
  async answer(prompt: string): Promise<string> {
    const request = parseBridgePrompt(prompt);
    if (!request) {
      this.plainInputs++;
      return '';
    }
    if ('malformed' in request) return JSON.stringify({ error: `The tool bridge got a malformed request: ${request.malformed}` });
    // A part is raw text the kernel joins and checks against the announced length: a missing one fails that check.
    if ('part' in request) return this.#parts[request.part] ?? '';
    this.#budgets.pause();
    try {
      this.calls += request.calls.length;
      const reply = encodeReply(await runBridgeRequest(request, this.#caller, this.#signal));
      this.#parts = reply.parts;
      return reply.first;
    } catch (error) {
      // Registry calls answer every failure, and encoding throws nothing: whatever arrives here is a bug. The cell
      // still gets it as its call's error (it can go on), and the harness is told.
      this.#onBug?.(error);
      return JSON.stringify({ error: errorSentence(error) });
    } finally {
      this.#budgets.resume();
    }
  }
}
