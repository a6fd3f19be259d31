import { countOfTotal } from './wording.js';

/** A list cut to a cap, with what a model needs to know about the cut. */
export interface Capped<T> {
  readonly items: readonly T[];
  readonly total: number;
  /** `"50 of 212 shown"` when cut, `''` otherwise. */
  readonly note: string;
}

/** Cuts a list to `max` items and says so when it did. */
export function capList<T>(items: readonly T[], max: number, noun = 'shown'): Capped<T> {
  if (items.length <= max) return { items, total: items.length, note: '' };
  return { items: items.slice(0, max), total: items.length, note: `${countOfTotal(max, items.length)} ${noun}` };
}

/**
 * Cuts text to at most `max` characters, keeping the head, and appends how much was cut. Used for values and
 * outputs a model reads, so one huge value cannot flood its context.
 */
export function capText(text: string, max: number): string {
  if (text.length <= max) return text;
  let end = Math.max(0, max);
  // Never half of a character made of two UTF-16 units: a lone surrogate makes the whole request invalid JSON.
  if (end > 0 && isHighSurrogate(text.charCodeAt(end - 1))) end--;
  return `${text.slice(0, end)}… (${text.length - end} more characters)`;
}

/** Like {@link capText} but keeps the end: the newest part of an output is usually the one that matters. */
export function capTextTail(text: string, max: number): string {
  if (text.length <= max) return text;
  let start = text.length - Math.max(0, max);
  if (start < text.length && isLowSurrogate(text.charCodeAt(start))) start++;
  return `(${start} earlier characters cut) …${text.slice(start)}`;
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}

function isLowSurrogate(code: number): boolean {
  return code >= 0xdc00 && code <= 0xdfff;
}
