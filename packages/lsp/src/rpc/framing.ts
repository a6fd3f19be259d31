/** Bounds that keep a misbehaving server from exhausting the harness's memory. */
export interface FramingLimits {
  /** A message larger than this is skipped (default 64 MiB). */
  readonly maxMessageBytes?: number;
  /** A header block longer than this is treated as garbage (default 8 KiB). */
  readonly maxHeaderBytes?: number;
}

/** Receives what a {@link MessageReader} decodes. */
export interface MessageSink {
  message(message: unknown): void;
  /** Output that is not a well-formed message; the reader has already resynchronized. */
  malformed(reason: string): void;
}

const SEPARATOR = Buffer.from('\r\n\r\n');
const HEADER_START = /content-(?:length|type)\s*:/i;

/**
 * Decodes the LSP base protocol (`Content-Length` headers and JSON bodies) from a byte stream.
 *
 * Unlike a trusting reader it never buffers without bound: garbage before a header is skipped up to the next
 * `Content-` header, a header without a usable length is dropped, an oversized body is skipped byte for byte,
 * and a body that is not JSON is reported and forgotten. A server that prints logs to stdout or floods output
 * therefore costs time, not the harness.
 */
export class MessageReader {
  readonly #sink: MessageSink;
  readonly #maxMessage: number;
  readonly #maxHeader: number;
  #chunks: Buffer[] = [];
  #size = 0;
  /** Body length being waited for; -1 while reading a header. */
  #bodyLength = -1;
  /** Bytes of an oversized message still to discard. */
  #skipping = 0;

  constructor(sink: MessageSink, limits: FramingLimits = {}) {
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

  /** Reads one header block if complete; returns whether progress was made. */
  #readHeader(): boolean {
    const buffer = this.#flatten();
    const start = findHeaderStart(buffer);
    if (start < 0) {
      // Keep a short tail: it may be the beginning of a header split across chunks.
      const keep = Math.min(buffer.length, 32);
      if (buffer.length > keep) {
        this.#take(buffer.length - keep);
        this.#sink.malformed(`${buffer.length - keep} bytes of output that is not the language-server protocol were skipped`);
      }
      return false;
    }
    if (start > 0) {
      this.#take(start);
      this.#sink.malformed(`${start} bytes of output that is not the language-server protocol were skipped`);
      return true;
    }
    const end = buffer.indexOf(SEPARATOR);
    if (end < 0) {
      if (buffer.length > this.#maxHeader) {
        this.#take(buffer.length);
        this.#sink.malformed(`a header longer than ${this.#maxHeader} bytes was skipped`);
      }
      return false;
    }
    const header = this.#take(end + SEPARATOR.length).toString('ascii', 0, end);
    const match = /(?:^|\r\n)content-length\s*:\s*(\d+)\s*(?:\r\n|$)/i.exec(header);
    if (!match) {
      this.#sink.malformed(`a header without a Content-Length was skipped: ${JSON.stringify(header.slice(0, 120))}`);
      return true;
    }
    const length = Number(match[1]);
    if (length > this.#maxMessage) {
      this.#skipping = length;
      this.#sink.malformed(`a message of ${length} bytes exceeds the limit of ${this.#maxMessage} bytes and was skipped`);
      return true;
    }
    this.#bodyLength = length;
    return true;
  }

  #decode(body: Buffer): void {
    let message: unknown;
    try {
      message = JSON.parse(body.toString('utf8'));
    } catch (error) {
      this.#sink.malformed(`a message body is not JSON (${(error as Error).message})`);
      return;
    }
    if (message === null || typeof message !== 'object' || Array.isArray(message)) {
      this.#sink.malformed('a message body is not a JSON object');
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
  // Headers are ASCII; latin1 maps bytes one to one, so string indexes are byte offsets.
  const text = buffer.toString('latin1', 0, Math.min(buffer.length, 64 * 1024));
  const match = HEADER_START.exec(text);
  if (match) return match.index;
  return -1;
}

/** Encodes one message with its `Content-Length` header. */
export function encodeMessage(message: unknown): Buffer {
  const body = Buffer.from(JSON.stringify(message), 'utf8');
  return Buffer.concat([Buffer.from(`Content-Length: ${body.length}\r\n\r\n`, 'ascii'), body]);
}
