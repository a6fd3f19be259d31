import { StringDecoder } from 'node:string_decoder';

/**
 * The last `limit` characters of a byte stream, decoded as UTF-8 across chunk boundaries. Appending is linear in
 * the bytes appended: the kept text is trimmed only when it has grown to twice the limit.
 */
export class TextTail {
  readonly #limit: number;
  readonly #decoder = new StringDecoder('utf8');
  #text = '';
  #total = 0;

  constructor(limit: number) {
    this.#limit = Math.max(0, limit);
  }

  /** Adds a chunk. */
  push(chunk: Buffer | string): void {
    const text = typeof chunk === 'string' ? chunk : this.#decoder.write(chunk);
    this.#total += text.length;
    this.#text += text;
    if (this.#text.length > this.#limit * 2) this.#text = this.#text.slice(this.#text.length - this.#limit);
  }

  /** The kept text: the newest `limit` characters. */
  get text(): string {
    return this.#text.length > this.#limit ? this.#text.slice(this.#text.length - this.#limit) : this.#text;
  }

  /** How many characters were ever pushed. */
  get total(): number {
    return this.#total;
  }
}
