import { describe, expect, it } from 'vitest';
import { ContentLengthReader, encodeContentLength, type MalformedKind } from '../../src/process.js';

function collect(limits?: { maxMessageBytes?: number; maxHeaderBytes?: number }) {
  const messages: unknown[] = [];
  const malformed: { reason: string; kind: MalformedKind }[] = [];
  const reader = new ContentLengthReader({ message: (m) => messages.push(m), malformed: (reason, kind) => malformed.push({ reason, kind }) }, limits);
  return { reader, messages, malformed, kinds: () => malformed.map((m) => m.kind) };
}

const one = { seq: 1, type: 'event' };
const two = { seq: 2, type: 'event', event: 'output', body: { output: 'héllo → ✓ 𝄞' } };

describe('ContentLengthReader', () => {
  it('splits messages cut at every byte, counts bytes not characters, and reads several per chunk', () => {
    const all = Buffer.concat([encodeContentLength(one), encodeContentLength(two), encodeContentLength(one)]);
    for (const size of [1, 2, 7, 64, all.length]) {
      const { reader, messages, malformed } = collect();
      for (let i = 0; i < all.length; i += size) reader.push(all.subarray(i, i + size));
      expect(messages).toEqual([one, two, one]);
      expect(malformed).toEqual([]);
    }
  });

  it('skips a stray line before, between and inside a burst of messages, and keeps reading', () => {
    const { reader, messages, malformed } = collect();
    reader.push(Buffer.from('adapter: warming up\n'));
    reader.push(Buffer.concat([encodeContentLength(one), Buffer.from('DEBUG stray line\r\n'), encodeContentLength(two)]));
    expect(messages).toEqual([one, two]);
    expect(malformed).toEqual([
      { kind: 'stray-output', reason: '20 bytes of output outside the protocol were skipped: "adapter: warming up"' },
      { kind: 'stray-output', reason: '18 bytes of output outside the protocol were skipped: "DEBUG stray line"' },
    ]);
  });

  it('keeps a header cut right after a stray line', () => {
    const { reader, messages } = collect();
    const framed = encodeContentLength(one);
    reader.push(Buffer.concat([Buffer.from('x'.repeat(100)), framed.subarray(0, 5)]));
    reader.push(framed.subarray(5));
    expect(messages).toEqual([one]);
  });

  it('skips a header without Content-Length and finds the next message', () => {
    const { reader, messages, kinds } = collect();
    reader.push(Buffer.from('Content-Type: x\r\n\r\n{}'));
    reader.push(encodeContentLength(one));
    expect(messages).toEqual([one]);
    expect(kinds()).toEqual(['bad-header', 'stray-output']);
  });

  it('skips an oversized message as it streams past, and a body that is not a JSON object', () => {
    const { reader, messages, malformed } = collect({ maxMessageBytes: 100 });
    const big = encodeContentLength({ data: 'x'.repeat(1000) });
    for (let i = 0; i < big.length; i += 10) reader.push(big.subarray(i, i + 10));
    reader.push(Buffer.from('Content-Length: 5\r\n\r\n{oops'));
    reader.push(Buffer.from('Content-Length: 2\r\n\r\n[]'));
    reader.push(encodeContentLength(one));
    expect(messages).toEqual([one]);
    expect(malformed.map((m) => m.kind)).toEqual(['oversized', 'bad-body', 'bad-body']);
    expect(malformed[0]?.reason).toBe('a message of 1011 bytes exceeds the limit of 100 bytes and was skipped');
  });

  it('does not buffer endless output without a header, nor an endless header', () => {
    const { reader, messages, kinds } = collect({ maxHeaderBytes: 64 });
    for (let i = 0; i < 1000; i++) reader.push(Buffer.from('no header here, just noise '.repeat(40)));
    reader.push(Buffer.from(`Content-Length: 2\r\nX-Filler: ${'y'.repeat(200)}`));
    reader.push(Buffer.from('\r\n\r\n{}'));
    reader.push(encodeContentLength(two));
    expect(messages).toEqual([two]);
    expect(kinds()).toContain('bad-header');
    expect(kinds().every((k) => k === 'stray-output' || k === 'bad-header')).toBe(true);
  });

  it('reads header lines that end in a bare LF, and a bad header never costs the message after it', () => {
    const { reader, messages, kinds } = collect();
    reader.push(Buffer.from('Content-Length: 7\n\n{"a":1}'));
    reader.push(encodeContentLength(one));
    // A server that logs an HTTP header on stdout, right before a real message.
    reader.push(Buffer.from('log: Content-Type: text/plain\nrequest done\n'));
    reader.push(encodeContentLength(two));
    expect(messages).toEqual([{ a: 1 }, one, two]);
    expect(kinds()).toEqual(['stray-output', 'bad-header', 'stray-output']);
  });

  it('skips a header whose length no message can have instead of swallowing the rest of the stream', () => {
    const { reader, messages, malformed } = collect();
    reader.push(Buffer.from('Content-Length: 99999999999999999999\r\n\r\n'));
    reader.push(encodeContentLength(one));
    expect(messages).toEqual([one]);
    expect(malformed).toEqual([
      { kind: 'bad-header', reason: 'a header with an impossible Content-Length was skipped: "Content-Length: 99999999999999999999"' },
    ]);
  });
});
