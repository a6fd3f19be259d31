import { describe, expect, it } from 'vitest';
import { TextTail } from '../../src/process/text-tail.js';

describe('TextTail', () => {
  it('keeps the newest characters across chunks cut inside a character, never half of a surrogate pair', () => {
    const bytes = Buffer.from('a🙂é🙂日🙂'.repeat(50));
    for (const limit of [1, 2, 3, 4, 5, 7, 64]) {
      const tail = new TextTail(limit);
      for (let at = 0; at < bytes.length; at += 3) tail.push(bytes.subarray(at, at + 3));
      const whole = bytes.toString('utf8');
      expect(tail.text.length, `limit ${limit}`).toBeLessThanOrEqual(limit);
      expect(whole.endsWith(tail.text), `limit ${limit}`).toBe(true);
      // A cut that would leave a lone low surrogate gives up that one unit instead.
      expect(tail.text.length, `limit ${limit}`).toBeGreaterThanOrEqual(limit - 1);
      expect(tail.text.charCodeAt(0) >= 0xdc00 && tail.text.charCodeAt(0) <= 0xdfff, `limit ${limit}`).toBe(false);
      expect(tail.total).toBe(whole.length);
    }
  });
});
