/** Bounds that keep a misbehaving peer from exhausting the harness's memory. */
export interface ContentLengthLimits {
  /** A message larger than this is skipped (default 64 MiB). */
  readonly maxMessageBytes?: number;
  /** A header block longer than this is treated as stray output (default 8 KiB). */
  readonly maxHeaderBytes?: number;
}

/**
 * What was wrong with input the reader skipped:
 * - `stray-output`: bytes outside any message (a log line a server or adapter printed to stdout);
 * - `bad-header`: a header block without a usable `Content-Length`;
 * - `oversized`: a message above the size limit;
 * - `bad-body`: a message whose body is not a JSON object (the stream is still in step after it).
 */
export type MalformedKind = 'stray-output' | 'bad-header' | 'oversized' | 'bad-body';

/** Receives what a {@link ContentLengthReader} decodes. */
export interface ContentLengthSink {
  message(message: object): void;
  /** Input that is not a well-formed message; the reader has already found its way back into step. */
  malformed(reason: string, kind: MalformedKind): void;
}

const HEADER_START = /content-(?:length|type)[ \t]*:/i;
const HEADER_AT_START = /^content-(?:length|type)[ \t]*:/i;
/** A header line: a field name (an HTTP token) and a colon. */
const HEADER_LINE = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+[ \t]*:/;
const LENGTH_LINE = /^content-length[ \t]*:[ \t]*(\d+)[ \t]*$/i;
/** Enough of a header's beginning to keep when no header is in sight: it may be cut across chunks. */
const KEPT_TAIL = 32;

/**
 * Decodes the `Content-Length` framing that LSP and DAP share from a byte stream.
 *
 * It never loses step and never buffers without bound: stray output before a header is skipped up to the next
 * `Content-Length:` or `Content-Type:`, a header block without a usable length is skipped (header lines may end
 * in CRLF or a bare LF; a log line inside a block cuts it there), an oversized body is discarded as it
 * streams past, and a body that is not JSON is reported and forgotten. Each is reported through
 * {@link ContentLengthSink.malformed}, so a peer that prints a log line costs a note, not the session. Work is
 * linear in the bytes received: chunks of a body are joined once, when the body is complete.
 */
export class ContentLengthReader {
  readonly #sink: ContentLengthSink;
  readonly #maxMessage: number;
  readonly #maxHeader: number;
  #chunks: Buffer[] = [];
  #size = 0;
  /** Body length being waited for; -1 while reading a header. */
  #bodyLength = -1;
  /** Bytes of an oversized message still to discard. */
  #skipping = 0;

  constructor(sink: ContentLengthSink, limits: ContentLengthLimits = {}) {
    this.#sink = sink;
    this.#maxMessage = limits.maxMessageBytes ?? 64 * 1024 * 1024;
    this.#maxHeader = limits.maxHeaderBytes ?? 8 * 1024;
  }

  /** Feeds bytes as they arrive. */
  push(chunk: Buffer): void {
    if (chunk.length === 0) return;
    this.#chunks.push(chunk);
    this.#size += chunk.length;
    for (;;) {
      if (this.#skipping > 0) {
        const dropped = Math.min(this.#skipping, this.#size);
        this.#take(dropped);
        this.#skipping -= dropped;
        if (this.#skipping > 0) return;
        continue;
      }
      if (this.#bodyLength < 0) {
        if (!this.#readHeader()) return;
        continue;
      }
      if (this.#size < this.#bodyLength) return;
      const body = this.#take(this.#bodyLength);
      this.#bodyLength = -1;
      this.#decode(body);
    }
  }

  /** Reads one header block if it is complete; returns whether progress was made. */
  #readHeader(): boolean {
    // While a header is awaited the buffer holds at most the header limit plus one chunk: flattening is cheap.
    const buffer = this.#flatten();
    const start = findHeaderStart(buffer);
    if (start < 0) {
      if (buffer.length > KEPT_TAIL) this.#stray(buffer.length - KEPT_TAIL);
      return false;
    }
    if (start > 0) {
      this.#stray(start);
      return true;
    }
    const block = readBlock(buffer, this.#maxHeader);
    if (block.kind === 'incomplete') return false;
    if (block.kind === 'too-long') {
      // Skip past this would-be header; the next one is searched from the byte after its start.
      this.#take(1);
      this.#sink.malformed(`a header longer than ${this.#maxHeader} bytes was skipped`, 'bad-header');
      return true;
    }
    const header = this.#take(block.end);
    if (block.kind === 'cut') {
      // A line that is not a header (a log line after a header-like one) may begin the next message: read on there.
      return this.#badHeader('a header block cut short by a line that is not a header', header);
    }
    const length = block.lines.map((line) => LENGTH_LINE.exec(line)?.[1]).find((value) => value !== undefined);
    if (length === undefined) return this.#badHeader('a header without a Content-Length', header);
    const bytes = Number(length);
    // No stream holds such a message: skipping it would swallow everything that follows.
    if (!Number.isSafeInteger(bytes)) return this.#badHeader('a header with an impossible Content-Length', header);
    if (bytes > this.#maxMessage) {
      this.#skipping = bytes;
      this.#sink.malformed(`a message of ${bytes} bytes exceeds the limit of ${this.#maxMessage} bytes and was skipped`, 'oversized');
      return true;
    }
    this.#bodyLength = bytes;
    return true;
  }

  /** Reports a skipped header block; returns true (progress was made). */
  #badHeader(what: string, header: Buffer): true {
    this.#sink.malformed(`${what} was skipped: ${JSON.stringify(header.toString('latin1').trimEnd().slice(0, 120))}`, 'bad-header');
    return true;
  }

  #stray(count: number): void {
    const bytes = this.#take(count);
    const text = bytes.toString('utf8', 0, Math.min(bytes.length, 200)).trim();
    this.#sink.malformed(`${count} bytes of output outside the protocol were skipped${text ? `: ${JSON.stringify(text)}` : ''}`, 'stray-output');
  }

  #decode(body: Buffer): void {
    let message: unknown;
    try {
      message = JSON.parse(body.toString('utf8'));
    } catch (error) {
      this.#sink.malformed(`a message body is not JSON (${(error as Error).message})`, 'bad-body');
      return;
    }
    if (message === null || typeof message !== 'object' || Array.isArray(message)) {
      this.#sink.malformed('a message body is not a JSON object', 'bad-body');
      return;
    }
    this.#sink.message(message);
  }

  #flatten(): Buffer {
    if (this.#chunks.length > 1) this.#chunks = [Buffer.concat(this.#chunks, this.#size)];
    return this.#chunks[0] ?? Buffer.alloc(0);
  }

  /** Removes and returns the first `count` bytes. */
  #take(count: number): Buffer {
    if (count === 0) return Buffer.alloc(0);
    const parts: Buffer[] = [];
    let missing = count;
    while (missing > 0) {
      const head = this.#chunks[0] as Buffer;
      if (head.length <= missing) {
        parts.push(head);
        this.#chunks.shift();
        missing -= head.length;
      } else {
        parts.push(head.subarray(0, missing));
        this.#chunks[0] = head.subarray(missing);
        missing = 0;
      }
    }
    this.#size -= count;
    return parts.length === 1 ? (parts[0] as Buffer) : Buffer.concat(parts, count);
  }
}

/** Where the next header begins: 0 when the buffer starts with one, -1 when none is in sight. */
function findHeaderStart(buffer: Buffer): number {
  // Headers are ASCII; latin1 maps bytes one to one, so string indexes are byte offsets. The usual case, a header
  // right at the start, looks at a few bytes only, so many messages in one chunk cost linear time.
  if (HEADER_AT_START.test(buffer.toString('latin1', 0, Math.min(buffer.length, 64)))) return 0;
  const match = HEADER_START.exec(buffer.toString('latin1'));
  return match ? match.index : -1;
}

type Block =
  | { readonly kind: 'complete'; readonly lines: readonly string[]; readonly end: number }
  | { readonly kind: 'cut'; readonly end: number }
  | { readonly kind: 'too-long' }
  | { readonly kind: 'incomplete' };

/**
 * The header block at the start of `buffer`: lines ending in CRLF (or a bare LF, as some peers write them), each a
 * `Name: value` header, up to an empty line. A line that is not a header, or that holds the start of another
 * block past its beginning, cuts the block before it: a log line that looked like a header costs that line, not the message after
 * it. A block must end within `max` bytes.
 */
function readBlock(buffer: Buffer, max: number): Block {
  // Bytes, not a string of the whole window: many small messages in one chunk stay linear.
  const window = buffer.subarray(0, max);
  const lines: string[] = [];
  for (let at = 0; ; ) {
    const newline = window.indexOf(10, at);
    if (newline < 0) return buffer.length >= max ? { kind: 'too-long' } : { kind: 'incomplete' };
    const line = buffer.toString('latin1', at, newline > at && buffer[newline - 1] === 13 ? newline - 1 : newline);
    if (line === '') return { kind: 'complete', lines, end: newline + 1 };
    if (!HEADER_LINE.test(line) || (lines.length > 0 && startsBlockInside(line))) return { kind: 'cut', end: at };
    lines.push(line);
    at = newline + 1;
  }
}

/** Whether a header start appears past the beginning of a line (log output followed by a real header). */
function startsBlockInside(line: string): boolean {
  const match = HEADER_START.exec(line);
  return match !== null && match.index > 0;
}

/** Encodes one message with its `Content-Length` header. */
export function encodeContentLength(message: unknown): Buffer {
  const body = Buffer.from(JSON.stringify(message), 'utf8');
  return Buffer.concat([Buffer.from(`Content-Length: ${body.length}\r\n\r\n`, 'ascii'), body]);
}
