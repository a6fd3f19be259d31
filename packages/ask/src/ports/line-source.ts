import { createInterface, type Interface } from 'node:readline';
import type { Readable, Writable } from 'node:stream';
import { errorDetail } from '@agent-tools/core';
import { BackgroundErrors } from '@agent-tools/core/internal';

/**
 * The line interface a harness already has (the `agent-tools` harness's `Terminal`): accepted by shape, so a
 * harness needs no adapter and this package needs no harness.
 */
export interface LineTerminal {
  /** Shows `prompt` and reads one line; `undefined` at end of input. */
  readLine(prompt: string): Promise<string | undefined>;
  /** Writes text for the human. */
  write(text: string): void;
}

/** Plain streams to build a terminal from: input lines are read from `input`, cards and prompts go to `output`. */
export interface TerminalStreams {
  readonly input: Readable & { readonly isTTY?: boolean };
  readonly output: Writable;
}

/** Returned by {@link LineSource.read} when the read was abandoned because its card was withdrawn. */
export const ABANDONED: unique symbol = Symbol('abandoned');

/** Returned by {@link LineSource.read} when the harness's `readLine` rejected: why, for the card's answer. */
export interface ReadFailed {
  readonly failed: string;
}

/** What the terminal port reads lines from and writes cards to. */
export interface LineSource {
  /** Reads one line; `undefined` at end of input; {@link ABANDONED} once `signal` aborts; {@link ReadFailed} when it failed. */
  read(prompt: string, signal: AbortSignal): Promise<string | undefined | typeof ABANDONED | ReadFailed>;
  write(text: string): void;
  /** Whether the input has ended. */
  readonly ended: boolean;
  close(): void;
}

/**
 * A source over a harness's `readLine`, which cannot be cancelled. An abandoned read stays outstanding and is
 * reused by the next card rather than asking for a second line, so lines never reach the wrong reader out of
 * order; a line that arrives when no card wants it is reported as ignored, not silently swallowed.
 */
export function terminalSource(terminal: LineTerminal, background: BackgroundErrors = new BackgroundErrors()): LineSource {
  let pending: Promise<string | undefined | ReadFailed> | undefined;
  let consumer: ((line: string | undefined | ReadFailed) => void) | undefined;
  let ended = false;
  return {
    get ended() {
      return ended;
    },
    read(prompt, signal) {
      if (ended) return Promise.resolve(undefined);
      if (pending) {
        terminal.write(prompt);
      } else {
        pending = terminal.readLine(prompt).then(
          (line) => line,
          // The harness's terminal failed, which is not the end of its input: the card says why, the harness is told,
          // and the next card reads again.
          (error: unknown): ReadFailed => {
            background.report(error);
            return { failed: `the terminal could not be read: ${errorDetail(error)}` };
          },
        );
        // Nobody awaits this: a throw in it (the harness's `write`) is a bug outside any call, told, never unhandled.
        background.watch(pending.then((line) => {
          pending = undefined;
          if (line === undefined) ended = true;
          const take = consumer;
          consumer = undefined;
          if (take) take(line);
          else if (typeof line === 'string' && line.trim()) {
            terminal.write(`(ignored ${JSON.stringify(line)}: the question it would have answered was withdrawn; type it again)\n`);
          }
        }));
      }
      return new Promise((resolve) => {
        if (signal.aborted) return resolve(ABANDONED);
        const take = (line: string | undefined | ReadFailed): void => {
          signal.removeEventListener('abort', abandon);
          resolve(line);
        };
        const abandon = (): void => {
          if (consumer === take) consumer = undefined;
          resolve(ABANDONED);
        };
        consumer = take;
        signal.addEventListener('abort', abandon, { once: true });
      });
    },
    write: (text) => terminal.write(text),
    close() {
      ended = true;
    },
  };
}

/**
 * A source over plain streams. It reads lines into a queue (so answers piped in ahead of the card are kept) and
 * can truly cancel a read. Input is only read from the first prompt on, and `close()` stops reading.
 */
export function streamSource(streams: TerminalStreams): LineSource {
  let reader: Interface | undefined;
  const lines: string[] = [];
  const waiters: ((line: string | undefined) => void)[] = [];
  let ended = false;
  const open = (): void => {
    if (reader || ended) return;
    reader = createInterface({ input: streams.input, output: streams.output, terminal: Boolean(streams.input.isTTY) });
    reader.on('line', (line) => {
      const waiter = waiters.shift();
      if (waiter) waiter(line);
      else lines.push(line);
    });
    reader.on('close', () => {
      ended = true;
      for (const waiter of waiters.splice(0)) waiter(undefined);
    });
  };
  return {
    get ended() {
      return ended && lines.length === 0;
    },
    read(prompt, signal) {
      open();
      streams.output.write(prompt);
      const queued = lines.shift();
      if (queued !== undefined) return Promise.resolve(queued);
      if (ended) return Promise.resolve(undefined);
      return new Promise((resolve) => {
        if (signal.aborted) return resolve(ABANDONED);
        const take = (line: string | undefined | ReadFailed): void => {
          signal.removeEventListener('abort', abandon);
          resolve(line);
        };
        const abandon = (): void => {
          const index = waiters.indexOf(take);
          if (index !== -1) waiters.splice(index, 1);
          resolve(ABANDONED);
        };
        waiters.push(take);
        signal.addEventListener('abort', abandon, { once: true });
      });
    },
    write: (text) => {
      streams.output.write(text);
    },
    close() {
      ended = true;
      reader?.close();
      for (const waiter of waiters.splice(0)) waiter(undefined);
    },
  };
}
