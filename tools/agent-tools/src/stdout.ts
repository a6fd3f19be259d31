/**
 * Writes to a stream and resolves once the stream has handed the text to the system (or failed). Standard output is
 * asynchronous when it is a pipe: a process that exits while a large answer is still queued loses the rest of it, so
 * every answer is awaited through here, and the process flushes both streams before it exits.
 */
export function writeWhole(stream: NodeJS.WritableStream, text: string): Promise<void> {
  return new Promise((resolve) => {
    try {
      stream.write(text, () => resolve());
    } catch {
      resolve(); // a closed stream (the reader went away): nothing left to deliver
    }
  });
}

/** Resolves once everything written to the stream so far has been handed to the system. */
export function flushed(stream: NodeJS.WritableStream): Promise<void> {
  return writeWhole(stream, '');
}

/** Flushes standard output and standard error, then exits with `code`. */
export async function exitFlushed(code: number): Promise<never> {
  await Promise.all([flushed(process.stdout), flushed(process.stderr)]);
  process.exit(code);
}
