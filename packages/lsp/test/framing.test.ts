import { describe, expect, it } from 'vitest';
import { encodeMessage, MessageReader } from '../src/rpc/framing.js';

function collect(limits?: { maxMessageBytes?: number; maxHeaderBytes?: number }) {
  const messages: unknown[] = [];
  const malformed: string[] = [];
  const reader = new MessageReader({ message: (m) => messages.push(m), malformed: (r) => malformed.push(r) }, limits);
  return { reader, messages, malformed };
}

describe('MessageReader (LSP base protocol framing)', () => {
  it('decodes messages split at every byte boundary', () => {
    const { reader, messages } = collect();
    const bytes = Buffer.concat([encodeMessage({ id: 1, result: 'é€😀' }), encodeMessage({ method: 'x' })]);
    for (const byte of bytes) reader.push(Buffer.from([byte]));
    expect(messages).toEqual([{ id: 1, result: 'é€😀' }, { method: 'x' }]);
  });

  it('decodes several messages from one chunk and accepts a Content-Type header', () => {
    const { reader, messages } = collect();
    const body = JSON.stringify({ id: 2, result: null });
    reader.push(Buffer.from(`Content-Type: application/vscode-jsonrpc; charset=utf-8\r\nContent-Length: ${body.length}\r\n\r\n${body}`));
    reader.push(Buffer.concat([encodeMessage({ a: 1 }), encodeMessage({ b: 2 })]));
    expect(messages).toEqual([{ id: 2, result: null }, { a: 1 }, { b: 2 }]);
  });

  it('skips log lines printed to stdout before a header', () => {
    const { reader, messages, malformed } = collect();
    reader.push(Buffer.concat([Buffer.from('Starting server...\nready\n'), encodeMessage({ ok: true })]));
    expect(messages).toEqual([{ ok: true }]);
    expect(malformed[0]).toMatch(/^25 bytes of output that is not the language-server protocol were skipped$/);
  });

  it('reports a body that is not JSON, or not an object, and goes on', () => {
    const { reader, messages, malformed } = collect();
    reader.push(Buffer.from('Content-Length: 5\r\n\r\n{bad}'));
    reader.push(Buffer.from('Content-Length: 3\r\n\r\n[1]'));
    reader.push(encodeMessage({ after: 1 }));
    expect(messages).toEqual([{ after: 1 }]);
    expect(malformed).toHaveLength(2);
    expect(malformed[0]).toContain('a message body is not JSON');
    expect(malformed[1]).toBe('a message body is not a JSON object');
  });

  it('drops a header without Content-Length', () => {
    const { reader, messages, malformed } = collect();
    reader.push(Buffer.from('Content-Type: text/plain\r\n\r\n'));
    reader.push(encodeMessage({ fine: true }));
    expect(messages).toEqual([{ fine: true }]);
    expect(malformed[0]).toContain('a header without a Content-Length was skipped');
  });

  it('skips an oversized body without buffering it, then reads on', () => {
    const { reader, messages, malformed } = collect({ maxMessageBytes: 1000 });
    reader.push(Buffer.from('Content-Length: 5000\r\n\r\n'));
    for (let i = 0; i < 5; i++) reader.push(Buffer.alloc(1000, 0x61));
    reader.push(encodeMessage({ next: 1 }));
    expect(messages).toEqual([{ next: 1 }]);
    expect(malformed).toEqual(['a message of 5000 bytes exceeds the limit of 1000 bytes and was skipped']);
  });

  it('does not grow without bound on endless garbage', () => {
    const { reader, malformed } = collect({ maxHeaderBytes: 256 });
    for (let i = 0; i < 1000; i++) reader.push(Buffer.alloc(4096, 0x7a));
    expect(malformed.length).toBe(1000);
    reader.push(encodeMessage({ recovered: true }));
  });

  it('treats an endless header as garbage', () => {
    const { reader, messages, malformed } = collect({ maxHeaderBytes: 64 });
    reader.push(Buffer.from(`Content-Length: 2\r\nX-Junk: ${'y'.repeat(200)}`));
    expect(malformed).toEqual(['a header longer than 64 bytes was skipped']);
    reader.push(encodeMessage({ again: 1 }));
    expect(messages).toEqual([{ again: 1 }]);
  });
});
