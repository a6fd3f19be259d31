import { createInterface } from 'node:readline';
import type { Readable, Writable } from 'node:stream';
import type { Terminal } from './plugin.js';

/** A terminal over streams that can also be closed: one reader of the input shared by every prompt. */
export interface StreamTerminal extends Terminal {
  close(): void;
}

/**
 * Reads lines from `input` into one queue that the REPL and every prompt take from in turn, so a prompt in
 * the middle of a call reads the next line rather than racing the REPL for it. Prompts go to `output`.
 */
export function streamTerminal(input: Readable & { isTTY?: boolean }, output: Writable): StreamTerminal {
  const reader = createInterface({ input, output, terminal: Boolean(input.isTTY) });
  const lines: string[] = [];
  const waiters: ((line: string | undefined) => void)[] = [];
  let closed = false;
  reader.on('line', (line) => {
    const waiter = waiters.shift();
    if (waiter) waiter(line);
    else lines.push(line);
  });
  reader.on('close', () => {
    closed = true;
    for (const waiter of waiters.splice(0)) waiter(undefined);
  });
  return {
    readLine(prompt) {
      if (prompt) output.write(prompt);
      const queued = lines.shift();
      if (queued !== undefined) return Promise.resolve(queued);
      if (closed) return Promise.resolve(undefined);
      return new Promise((resolve) => waiters.push(resolve));
    },
    write(text) {
      output.write(text);
    },
    close() {
      reader.close();
    },
  };
}
