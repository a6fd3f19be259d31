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
    if (this.#text.length > this.#limit * 2) this.#text = wholeFrom(this.#text, this.#text.length - this.#limit);
  }

  /** The kept text: the newest `limit` UTF-16 units, one fewer where the cut would split a surrogate pair. */
  get text(): string {
    return this.#text.length > this.#limit ? wholeFrom(this.#text, this.#text.length - this.#limit) : this.#text;
  }

  /** How many characters were ever pushed. */
  get total(): number {
    return this.#total;
  }
}

/** `text` from `start`, or from one unit later when `start` is the second half of a surrogate pair. */
function wholeFrom(text: string, start: number): string {
  const code = text.charCodeAt(start);
  return text.slice(code >= 0xdc00 && code <= 0xdfff ? start + 1 : start);
}
