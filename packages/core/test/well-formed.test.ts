import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { capText, capTextTail } from '../src/caps.js';
import { createRegistry, defineTool, resultText, textResult } from '../src/index.js';

/** Whether a string is valid UTF-16: no high surrogate without its low half, no low one alone. */
const wellFormed = (text: string): boolean => !/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/.test(text);

describe('text a model reads is valid UTF-16', () => {
  it('caps text without cutting a character made of two UTF-16 units in half', () => {
    const emoji = '😀'.repeat(100);
    for (let max = 40; max < 60; max++) {
      expect(wellFormed(capText(emoji, max))).toBe(true);
      expect(wellFormed(capTextTail(emoji, max))).toBe(true);
    }
    expect(capText(emoji, 51)).toBe(`${'😀'.repeat(25)}… (150 more characters)`);
    expect(capTextTail(emoji, 51)).toBe(`(150 earlier characters cut) …${'😀'.repeat(25)}`);
  });

  it('turns a lone surrogate in any result into U+FFFD: model APIs refuse the request ("no low surrogate in string")', async () => {
    const echo = defineTool({
      name: 'echo',
      tier: 'read',
      description: 'Echoes a JavaScript string with a lone surrogate, as a cell printing one would.',
      parallelSafe: true,
      parameters: z.object({}),
      execute: () => textResult('x\ud800y \udc00 ok 😀'),
    });
    await using registry = createRegistry({ tools: [echo] });
    registry.notices.post({ text: 'late \udbff notice' });
    const result = await registry.call('echo', {});
    const text = resultText(result);
    expect(wellFormed(text)).toBe(true);
    expect(text).toBe('x\ufffdy \ufffd ok 😀\nlate \ufffd notice');
  });
});
