import type { Position, TextEdit } from 'vscode-languageserver-protocol';
import { LspError } from '../errors.js';

/**
 * Applies LSP text edits to a text. Positions are UTF-16 based, as JavaScript strings index; all edits refer
 * to the original text, so they are applied from the end. Overlapping edits are refused, as LSP requires.
 */
export function applyTextEdits(text: string, edits: readonly TextEdit[], file: string): string {
  const starts = lineStarts(text);
  const spans = edits.map((edit, order) => ({
    start: offsetOf(text, starts, edit.range.start),
    end: offsetOf(text, starts, edit.range.end),
    newText: edit.newText,
    order,
  }));
  spans.sort((a, b) => a.start - b.start || a.end - b.end || a.order - b.order);
  for (let i = 1; i < spans.length; i++) {
    const previous = spans[i - 1] as (typeof spans)[number];
    const current = spans[i] as (typeof spans)[number];
    if (current.start < previous.end) {
      throw new LspError('edit_failed', `The server sent overlapping edits for ${file}; nothing was changed.`);
    }
  }
  let result = text;
  for (const span of [...spans].reverse()) {
    if (span.end < span.start) throw new LspError('edit_failed', `The server sent an edit with an inverted range for ${file}; nothing was changed.`);
    result = result.slice(0, span.start) + span.newText + result.slice(span.end);
  }
  return result;
}

function lineStarts(text: string): number[] {
  const starts = [0];
  for (let i = 0; i < text.length; i++) {
    const char = text.charCodeAt(i);
    if (char === 13 /* \r */) {
      if (text.charCodeAt(i + 1) === 10) i++;
      starts.push(i + 1);
    } else if (char === 10 /* \n */) starts.push(i + 1);
  }
  return starts;
}

function offsetOf(text: string, starts: readonly number[], position: Position): number {
  if (position.line >= starts.length) return text.length;
  const lineStart = starts[position.line] as number;
  const nextStart = position.line + 1 < starts.length ? (starts[position.line + 1] as number) : text.length;
  // A character past the end of the line clamps to the line end (before its line break), as LSP specifies.
  let lineEnd = nextStart;
  if (position.line + 1 < starts.length) {
    lineEnd = nextStart - 1;
    if (text.charCodeAt(lineEnd - 1) === 13 && text.charCodeAt(lineEnd) === 10) lineEnd--;
  }
  return Math.min(lineStart + position.character, lineEnd);
}
