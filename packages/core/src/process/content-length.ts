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

const SEPARATOR = Buffer.from('\r\n\r\n');
const HEADER_START = /content-(?:length|type)\s*:/i;
const HEADER_AT_START = /^content-(?:length|type)\s*:/i;
/** Enough of a header's beginning to keep when no header is in sight: it may be cut across chunks. */
const KEPT_TAIL = 32;

/**
 * Decodes the `Content-Length` framing that LSP and DAP share from a byte stream.
 *
 * It never loses step and never buffers without bound: stray output before a header is skipped up to the next
 * `Content-` header, a header without a usable length is skipped, an oversized body is discarded as it
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
    const end = buffer.subarray(0, this.#maxHeader + SEPARATOR.length).indexOf(SEPARATOR);
    if (end < 0) {
      if (buffer.length > this.#maxHeader) {
        // Skip past this would-be header; the next one is searched from the byte after its start.
        this.#take(1);
        this.#sink.malformed(`a header longer than ${this.#maxHeader} bytes was skipped`, 'bad-header');
        return true;
      }
      return false;
    }
    const header = this.#take(end + SEPARATOR.length).toString('latin1', 0, end);
    const match = /(?:^|\r\n)content-length\s*:\s*(\d+)\s*(?:\r\n|$)/i.exec(header);
    if (!match) {
      this.#sink.malformed(`a header without a Content-Length was skipped: ${JSON.stringify(header.slice(0, 120))}`, 'bad-header');
      return true;
    }
    const length = Number(match[1]);
    if (length > this.#maxMessage) {
      this.#skipping = length;
      this.#sink.malformed(`a message of ${length} bytes exceeds the limit of ${this.#maxMessage} bytes and was skipped`, 'oversized');
      return true;
    }
    this.#bodyLength = length;
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

/** Encodes one message with its `Content-Length` header. */
export function encodeContentLength(message: unknown): Buffer {
  const body = Buffer.from(JSON.stringify(message), 'utf8');
  return Buffer.concat([Buffer.from(`Content-Length: ${body.length}\r\n\r\n`, 'ascii'), body]);
}
