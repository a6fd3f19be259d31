import { describe, expect, it } from 'vitest';
import { ContentLengthReader, type MalformedKind } from '../../src/process.js';
import { seededRandom } from '../helpers.js';
import { referenceParse } from './content-length-reference.js';

const MAX_MESSAGE = 400;
const MAX_HEADER = 120;

type Next = () => number;
const pick = <T>(next: Next, items: readonly T[]): T => items[Math.floor(next() * items.length)] as T;

/** Text a peer might put in a message or a log line: non-ASCII, escapes, and words that look like framing. */
const WORDS = ['a', 'é', '𝄞', '日本', '🙂', ' ', '\\', '"', '\r\n', '\n', 'Content', 'Length', ': 12', '{', '}', 'Content-Length: 3'];

function words(next: Next, max: number): string {
  let text = '';
  const count = Math.floor(next() * max);
  for (let i = 0; i < count; i++) text += pick(next, WORDS);
  return text;
}

/** One header line ending, as a peer may write it. */
const EOL = ['\r\n', '\r\n', '\r\n', '\n'];

function header(next: Next, length: number | string): string {
  const eol = pick(next, EOL);
  const name = pick(next, ['Content-Length', 'content-length', 'CONTENT-LENGTH']);
  const lengthLine = `${name}${pick(next, ['', ' '])}:${pick(next, ['', ' ', '  '])}${length}${pick(next, ['', ' '])}${eol}`;
  const typeLine = `Content-Type: application/vscode-jsonrpc; charset=utf-8${eol}`;
  const lines = next() < 0.3 ? (next() < 0.5 ? [typeLine, lengthLine] : [lengthLine, typeLine]) : [lengthLine];
  return `${lines.join('')}${eol}`;
}

/** A stray line: log output that holds no header start. */
function strayLine(next: Next): string {
  const text = words(next, 12).replace(/content-(length|type)\s*:/gi, 'x');
  return `${pick(next, ['DEBUG ', 'warning: ', '', 'Content-Encoding: gzip '])}${text}${pick(next, ['\n', '\r\n', ''])}`;
}

interface Stream {
  readonly bytes: Buffer;
  /** What a correct reader must deliver, known by construction. */
  readonly expected: object[];
}

/** A stream of well-formed messages mixed with every kind of fault, and the messages it holds. */
function generate(next: Next): Stream {
  const parts: Buffer[] = [];
  const expected: object[] = [];
  const count = 1 + Math.floor(next() * 8);
  for (let i = 0; i < count; i++) {
    const roll = next();
    if (roll < 0.45) {
      const message = { seq: i, text: words(next, 10) };
      const body = Buffer.from(JSON.stringify(message), 'utf8');
      if (body.length > MAX_MESSAGE) continue;
      parts.push(Buffer.from(header(next, body.length), 'latin1'), body);
      expected.push(message);
    } else if (roll < 0.65) {
      parts.push(Buffer.from(strayLine(next), 'utf8'));
    } else if (roll < 0.72) {
      const body = Buffer.from(pick(next, ['{oops', '[1,2]', 'null', '"é"', '']), 'utf8');
      parts.push(Buffer.from(header(next, body.length), 'latin1'), body);
    } else if (roll < 0.78) {
      // A log line that prints a header the protocol does not use, right before a real one.
      parts.push(Buffer.from(`log: Content-Type: text/plain${pick(next, EOL)}`, 'latin1'));
    } else if (roll < 0.84) {
      const body = Buffer.from(JSON.stringify({ big: 'x'.repeat(MAX_MESSAGE) }), 'utf8');
      parts.push(Buffer.from(header(next, body.length), 'latin1'), body);
    } else if (roll < 0.9) {
      parts.push(Buffer.from(`Content-Length: ${pick(next, ['99999999999999999999', '-4', '0x10', ''])}${pick(next, EOL)}${pick(next, EOL)}`, 'latin1'));
    } else {
      parts.push(Buffer.from(`Content-Type: text/plain${pick(next, EOL)}${pick(next, EOL)}`, 'latin1'));
    }
  }
  // A last good message, so everything before it has been judged when the stream ends.
  const last = { seq: count, end: true };
  parts.push(Buffer.from(header(next, JSON.stringify(last).length), 'latin1'), Buffer.from(JSON.stringify(last)));
  expected.push(last);
  return { bytes: Buffer.concat(parts), expected };
}

function read(chunks: readonly Buffer[]): { messages: object[]; kinds: MalformedKind[] } {
  const messages: object[] = [];
  const kinds: MalformedKind[] = [];
  const reader = new ContentLengthReader(
    { message: (message) => messages.push(message), malformed: (_reason, kind) => kinds.push(kind) },
    { maxMessageBytes: MAX_MESSAGE, maxHeaderBytes: MAX_HEADER },
  );
  for (const chunk of chunks) reader.push(chunk);
  return { messages, kinds };
}

function randomChunks(bytes: Buffer, next: Next): Buffer[] {
  const chunks: Buffer[] = [];
  for (let at = 0; at < bytes.length; ) {
    const size = 1 + Math.floor(next() * 40);
    chunks.push(bytes.subarray(at, at + size));
    at += size;
  }
  return chunks;
}

describe('ContentLengthReader on generated streams (seeded; the oracle is a whole-stream reference parser)', () => {
  it('delivers exactly the messages a stream holds, however faulty, and agrees with the reference', () => {
    for (let seed = 1; seed <= 1500; seed++) {
      const next = seededRandom(seed);
      const { bytes, expected } = generate(next);
      const reference = referenceParse(bytes, MAX_MESSAGE, MAX_HEADER);
      const context = `seed ${seed}: ${JSON.stringify(bytes.toString('latin1'))}`;
      expect(reference.messages, `the reference itself, ${context}`).toEqual(expected);
      const whole = read([bytes]);
      expect(whole.messages, context).toEqual(expected);
      expect(new Set(whole.kinds), `kinds of fault, ${context}`).toEqual(new Set(reference.kinds));
      expect(read(randomChunks(bytes, next)).messages, `random chunks, ${context}`).toEqual(expected);
    }
  });

  it('is not affected by where a chunk ends: every split point, and one byte at a time', () => {
    for (let seed = 5001; seed <= 5150; seed++) {
      const { bytes, expected } = generate(seededRandom(seed));
      for (let at = 0; at <= bytes.length; at++) {
        const split = read([bytes.subarray(0, at), bytes.subarray(at)]);
        expect(split.messages, `seed ${seed} split at ${at}: ${JSON.stringify(bytes.toString('latin1'))}`).toEqual(expected);
      }
      const bytewise = read([...bytes].map((byte) => Buffer.from([byte])));
      expect(bytewise.messages, `seed ${seed} byte by byte`).toEqual(expected);
    }
  });

  it('agrees with the reference on byte soup made of framing fragments', () => {
    const fragments = ['Content-Length: ', 'content-type:', '7', '12', '\r\n', '\n', '\r', '{"a":1}', '{}', 'é', ' ', 'x', ':'];
    for (let seed = 9001; seed <= 11000; seed++) {
      const next = seededRandom(seed);
      let soup = '';
      const count = Math.floor(next() * 30);
      for (let i = 0; i < count; i++) soup += pick(next, fragments);
      const bytes = Buffer.from(soup, 'utf8');
      const reference = referenceParse(bytes, MAX_MESSAGE, MAX_HEADER);
      const context = `seed ${seed}: ${JSON.stringify(soup)}`;
      expect(read([bytes]).messages, context).toEqual(reference.messages);
      expect(read(randomChunks(bytes, next)).messages, `random chunks, ${context}`).toEqual(reference.messages);
    }
  });
});
