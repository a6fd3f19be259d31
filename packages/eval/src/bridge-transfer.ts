import type { BridgeReply, BridgeResult } from './bridge.js';

/** How much one bridged answer may carry, and how it travels. */
export const BRIDGE_LIMITS = Object.freeze({
  /**
   * Characters of one reply (every result of one `tool()` or `tool.parallel()` call, as JSON): 64 Mi. A result that
   * would take a reply past it is replaced by an error naming the limit, so the cell can ask for less.
   */
  reply: 64 * 1024 * 1024,
  /**
   * Characters per input_reply message. Jupyter servers close a websocket on a client message over 10 MiB
   * (tornado's default), so a larger reply travels in parts the kernel fetches one by one; a part of 1 Mi
   * characters stays under 4 MiB on the wire even when every character needs escaping or three UTF-8 bytes.
   */
  part: 1024 * 1024,
});

/** Characters of a reply's JSON beside its results (`{"results":[...]}` and the commas). */
const REPLY_OVERHEAD = 16;

/** The first answer to a request whose reply travels in parts: how many, and the reply's length to check. */
export interface PartedReply {
  readonly parts: number;
  readonly length: number;
}

/**
 * A reply on its way to the kernel: the text of the first input_reply, and the parts the kernel asks for next
 * (`{"part": i}`), when there are any.
 */
export interface OutgoingReply {
  readonly first: string;
  readonly parts: readonly string[];
}

/** Cuts a reply into what fits the transport, after capping it at {@link BRIDGE_LIMITS.reply}. */
export function encodeReply(reply: BridgeReply, limits = BRIDGE_LIMITS): OutgoingReply {
  const text = JSON.stringify(capReply(reply, limits.reply));
  if (text.length <= limits.part) return { first: text, parts: [] };
  const parts: string[] = [];
  let start = 0;
  while (start < text.length) {
    // A part never ends between the two halves of a surrogate pair: each part must be valid UTF-16 on its own.
    let end = Math.min(start + limits.part, text.length);
    const last = text.charCodeAt(end - 1);
    if (end < text.length && last >= 0xd800 && last <= 0xdbff) end--;
    parts.push(text.slice(start, end));
    start = end;
  }
  const head: PartedReply = { parts: parts.length, length: text.length };
  return { first: JSON.stringify({ parted: head }), parts };
}

/**
 * Keeps a reply within `limit` characters of JSON: while it is over, the largest result is replaced by an error
 * saying how large it was and what the limit is. The others arrive whole.
 */
export function capReply(reply: BridgeReply, limit: number): BridgeReply {
  const sizes = reply.results.map((result) => JSON.stringify(result).length);
  let total = sizes.reduce((sum, size) => sum + size, 0) + REPLY_OVERHEAD;
  if (total <= limit) return reply;
  const results = [...reply.results];
  while (total > limit) {
    let largest = 0;
    for (let i = 1; i < sizes.length; i++) if ((sizes[i] ?? 0) > (sizes[largest] ?? 0)) largest = i;
    const replaced = tooLarge(sizes[largest] ?? 0, limit);
    const size = JSON.stringify(replaced).length;
    total += size - (sizes[largest] ?? 0);
    sizes[largest] = size;
    results[largest] = replaced;
    if (sizes.every((s) => s <= size)) break;
  }
  return { results };
}

function tooLarge(size: number, limit: number): BridgeResult {
  const mib = (n: number): string => `${Math.round((n / 1024 / 1024) * 10) / 10} Mi`;
  // A result that fits alone was only too large beside the others of its call: saying "too large" would contradict the numbers.
  const text =
    size + REPLY_OVERHEAD <= limit
      ? `This result (${size} characters as JSON) fits the tool bridge alone, but not together with the other results of the same call: one tool() or tool.parallel() answer (in JavaScript, the tool() calls started together) carries at most ${limit} characters (${mib(limit)}) in all. Ask for fewer at once (split the calls into smaller groups), or for less in each.`
      : `This result is too large for the tool bridge: ${size} characters as JSON, and one tool() or tool.parallel() answer carries at most ${limit} characters (${mib(limit)}). Ask for less: a range of lines, a narrower search, fewer calls in one tool.parallel().`;
  return { text, isError: true, images: [] };
}
