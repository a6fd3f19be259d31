import type { DebugProtocol } from '@vscode/debugprotocol';

const HEADER_END = Buffer.from('\r\n\r\n');
/** A header block this long without an end is not DAP: stop buffering rather than grow forever. */
const MAX_HEADER_BYTES = 8192;

/** Encodes one DAP message with its `Content-Length` header. */
export function encodeMessage(message: DebugProtocol.ProtocolMessage): Buffer {
  const body = Buffer.from(JSON.stringify(message), 'utf8');
  return Buffer.concat([Buffer.from(`Content-Length: ${body.length}\r\n\r\n`, 'ascii'), body]);
}

/**
 * Splits a byte stream into DAP messages. Chunks may cut a header or a body anywhere; a malformed header or
 * body is reported once through `onError` and the reader stops (the stream is no longer in sync).
 */
export class MessageReader {
  #buffer: Buffer = Buffer.alloc(0);
  #failed = false;

  constructor(
    private readonly onMessage: (message: DebugProtocol.ProtocolMessage) => void,
    private readonly onError: (error: Error) => void,
  ) {}

  push(chunk: Buffer): void {
    if (this.#failed) return;
    this.#buffer = this.#buffer.length ? Buffer.concat([this.#buffer, chunk]) : chunk;
    for (;;) {
      const end = this.#buffer.indexOf(HEADER_END);
      if (end < 0) {
        if (this.#buffer.length > MAX_HEADER_BYTES) this.#fail(new Error('no DAP header end in the first 8 KiB'));
        return;
      }
      const header = this.#buffer.subarray(0, end).toString('ascii');
      const match = /(?:^|\r\n)Content-Length:\s*(\d+)/i.exec(header);
      if (!match) {
        this.#fail(new Error(`DAP header without Content-Length: ${JSON.stringify(header.slice(0, 200))}`));
        return;
      }
      const length = Number(match[1]);
      const start = end + HEADER_END.length;
      if (this.#buffer.length < start + length) return;
      const body = this.#buffer.subarray(start, start + length).toString('utf8');
      this.#buffer = this.#buffer.subarray(start + length);
      let message: DebugProtocol.ProtocolMessage;
      try {
        message = JSON.parse(body) as DebugProtocol.ProtocolMessage;
      } catch (error) {
        this.#fail(new Error(`DAP body is not JSON: ${(error as Error).message}`));
        return;
      }
      this.onMessage(message);
      if (this.#failed) return;
    }
  }

  #fail(error: Error): void {
    this.#failed = true;
    this.#buffer = Buffer.alloc(0);
    this.onError(error);
  }
}
