import { closeSync, constants, fstatSync, openSync, readFileSync, readSync, type Stats } from 'node:fs';
import { open } from 'node:fs/promises';
import { CoreError } from './errors.js';

// O_NONBLOCK: opening a FIFO that has no writer returns at once instead of blocking the thread (and with it the
// whole harness, signal handlers included) until someone writes. O_NOCTTY: a terminal device never becomes ours.
const READ_FLAGS = constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOCTTY;

/** What a path that is not a regular file or a folder is, in words ("a FIFO (named pipe)"), or undefined. */
export function specialFileKind(stats: Stats): string | undefined {
  if (stats.isFIFO()) return 'a FIFO (named pipe)';
  if (stats.isSocket()) return 'a socket';
  if (stats.isCharacterDevice()) return 'a character device';
  if (stats.isBlockDevice()) return 'a block device';
  return undefined;
}

/** The error for a path that is not a regular file; tools read and write regular files only. */
export function notRegularFile(name: string, kind: string): CoreError {
  return new CoreError(
    'not_regular_file',
    `"${name}" is ${kind}, not a regular file; tools read and write regular files only, so it was not opened. Pass a regular file.`,
  );
}

/**
 * Reads a file that must be a regular one, without ever blocking on a special file: the file is opened
 * non-blocking and checked through its descriptor (no window in which the path could be swapped), and a FIFO,
 * socket or device is refused with {@link notRegularFile}. `name` is how the error names it (workspace-relative).
 */
export function readRegularFileSync(path: string, name = path): Buffer {
  const fd = openSync(path, READ_FLAGS);
  try {
    const stats = fstatSync(fd);
    const kind = stats.isDirectory() ? 'a directory' : specialFileKind(stats);
    if (kind) throw notRegularFile(name, kind);
    return readFileSync(fd);
  } finally {
    closeSync(fd);
  }
}

/** A reusable read buffer for {@link readRegularFileIntoSync}; it grows to the largest file read. */
export interface ReadScratch {
  buffer: Buffer;
}

/**
 * {@link readRegularFileSync} into a reusable buffer: returns a view of `scratch.buffer`, valid until the next read
 * with the same scratch. A thread that reads thousands of files (a search) then leaves no buffer per file behind:
 * those are freed only when the garbage collector runs, and held tens of megabytes at a time before.
 */
export function readRegularFileIntoSync(path: string, scratch: ReadScratch, name = path): Buffer {
  const fd = openSync(path, READ_FLAGS);
  try {
    const stats = fstatSync(fd);
    const kind = stats.isDirectory() ? 'a directory' : specialFileKind(stats);
    if (kind) throw notRegularFile(name, kind);
    // One byte more than the size, so a file that grew since the stat is noticed and read to its end.
    if (scratch.buffer.length < stats.size + 1) scratch.buffer = Buffer.allocUnsafeSlow(Math.max(stats.size + 1, 2 * scratch.buffer.length));
    let length = 0;
    for (;;) {
      if (length === scratch.buffer.length) {
        const larger = Buffer.allocUnsafeSlow(2 * length);
        scratch.buffer.copy(larger, 0, 0, length);
        scratch.buffer = larger;
      }
      const read = readSync(fd, scratch.buffer, length, scratch.buffer.length - length, null);
      if (read === 0) return scratch.buffer.subarray(0, length);
      length += read;
    }
  } finally {
    closeSync(fd);
  }
}

/** {@link readRegularFileSync}, asynchronously, with the file's permission bits. */
export async function readRegularFile(path: string, name = path): Promise<{ bytes: Buffer; mode: number }> {
  const handle = await open(path, READ_FLAGS);
  try {
    const stats = await handle.stat();
    const kind = stats.isDirectory() ? 'a directory' : specialFileKind(stats);
    if (kind) throw notRegularFile(name, kind);
    return { bytes: await handle.readFile(), mode: stats.mode & 0o7777 };
  } finally {
    await handle.close();
  }
}
