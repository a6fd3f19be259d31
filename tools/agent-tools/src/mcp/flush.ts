/**
 * Resolves once everything written to a stream so far has been handed to the operating system, or the stream
 * failed, or `limitMs` passed. A pipe whose reader is slow holds a large answer in Node's buffer; exiting before it
 * drains would cut the answer short, which a JSON-RPC client reads as a broken message.
 */
export function flushed(stream: NodeJS.WritableStream & { writableLength?: number; destroyed?: boolean }, limitMs: number): Promise<void> {
  if (stream.destroyed) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, limitMs);
    timer.unref();
    const done = (): void => {
      clearTimeout(timer);
      resolve();
    };
    stream.once('error', done);
    // Writes complete in order, so the callback of an empty write comes after every earlier write has drained.
    stream.write('', () => done());
  });
}
