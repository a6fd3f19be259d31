import { describe, expect, it } from 'vitest';
import type { BridgeReply } from '../src/bridge.js';
import { capReply, encodeReply } from '../src/bridge-transfer.js';

const result = (text: string) => ({ text, isError: false, images: [] });

describe('encodeReply', () => {
  it('sends a small reply whole', () => {
    const reply: BridgeReply = { results: [result('hi')] };
    expect(encodeReply(reply, { reply: 1000, part: 100 })).toEqual({ first: JSON.stringify(reply), parts: [] });
  });

  it('cuts a large reply into parts that join to it, never splitting a surrogate pair', () => {
    const reply: BridgeReply = { results: [result(`${'a'.repeat(7)}😀${'b'.repeat(40)}😀😀`)] };
    const { first, parts } = encodeReply(reply, { reply: 1000, part: 10 });
    const head = JSON.parse(first) as { parted: { parts: number; length: number } };
    const joined = parts.join('');
    expect(joined).toBe(JSON.stringify(reply));
    expect(head.parted).toEqual({ parts: parts.length, length: joined.length });
    for (const part of parts) {
      expect(part.length).toBeLessThanOrEqual(10);
      expect(/^[\udc00-\udfff]|[\ud800-\udbff]$/.test(part)).toBe(false);
    }
  });
});

describe('capReply', () => {
  it('replaces the largest results by an error naming the limit until the reply fits', () => {
    const reply: BridgeReply = { results: [result('a'.repeat(300)), result('small'), result('b'.repeat(2000))] };
    const capped = capReply(reply, 1000);
    expect(capped.results[0]).toEqual(reply.results[0]);
    expect(capped.results[1]).toEqual(reply.results[1]);
    expect(capped.results[2]?.isError).toBe(true);
    expect(capped.results[2]?.text).toContain(`too large for the tool bridge: ${JSON.stringify(reply.results[2]).length} characters as JSON`);
    expect(capped.results[2]?.text).toContain('carries at most 1000 characters');
    expect(JSON.stringify(capped).length).toBeLessThanOrEqual(1000);
  });

  it('says so when a result fits alone and only the results together are too large', () => {
    const reply: BridgeReply = { results: [result('a'.repeat(500)), result('b'.repeat(600))] };
    const capped = capReply(reply, 1000);
    expect(capped.results[0]).toEqual(reply.results[0]);
    const size = JSON.stringify(reply.results[1]).length;
    // "too large: 650 characters, at most 1000" read as a contradiction.
    expect(capped.results[1]?.text).toBe(
      `This result (${size} characters as JSON) fits the tool bridge alone, but not together with the other results of the same call: one tool() or tool.parallel() answer (in JavaScript, the tool() calls started together) carries at most 1000 characters (0 Mi) in all. Ask for fewer at once (split the calls into smaller groups), or for less in each.`,
    );
  });
});
