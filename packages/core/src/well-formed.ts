import type { ToolResult } from './result.js';

const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/**
 * Text as valid UTF-16: a lone surrogate (half of a character cut in two, or printed by a program on its own) becomes
 * U+FFFD. A JSON request carrying one is refused by model APIs ("no low surrogate in string"), and since the result
 * stays in the conversation, every later request of the run would be refused too.
 */
export function wellFormedText(text: string): string {
  return text.replace(LONE_SURROGATE, '\ufffd');
}

/** A result whose text parts are valid UTF-16 (see {@link wellFormedText}); the same object when they already are. */
export function wellFormedResult<S>(result: ToolResult<S>): ToolResult<S> {
  if (!result.content.some((part) => part.type === 'text' && wellFormedText(part.text) !== part.text)) return result;
  return { ...result, content: result.content.map((part) => (part.type === 'text' ? { ...part, text: wellFormedText(part.text) } : part)) };
}
