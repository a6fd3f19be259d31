import { isAbsolute } from 'node:path';
import { displayPath } from '@agent-tools/core';
import type { FrameView, SourceWindow, VariablesView, VariableView } from '../session/views.js';

/** A path as the model should see it (core's displayPath); an adapter's relative or missing path as it is. */
export function showPath(path: string | undefined, cwd: string): string {
  if (!path) return '<no source>';
  return isAbsolute(path) ? displayPath(path, cwd) : path;
}

/** `file:line`, or the frame's name alone when it has no source. */
export function location(frame: FrameView, cwd: string): string {
  return frame.noSource || !frame.path ? `${frame.name} (no source)` : `${showPath(frame.path, cwd)}:${frame.line}`;
}

/** Source lines with the current one marked. */
export function sourceLines(window: SourceWindow): string {
  const width = String(window.lines.at(-1)?.number ?? window.line).length;
  return window.lines
    .map((l) => `${l.number === window.line ? '>' : ' '} ${String(l.number).padStart(width)} | ${l.text}`)
    .join('\n');
}

/** One variable per line: `name (type) = value  [reference 6, 3 children]`. */
export function variableLine(v: VariableView, indent = '  '): string {
  if (v.value === '' && v.reference) return `${indent}${v.name}: [group, reference ${v.reference}]`;
  const type = v.type ? ` (${v.type})` : '';
  const ref = v.reference ? `  [reference ${v.reference}${v.children ? `, ${v.children} children` : ''}]` : '';
  return `${indent}${v.name}${type} = ${v.value}${ref}`;
}

/** A capped variable list with its "N of M shown" note. */
export function variableLines(view: VariablesView, reference: number, indent = '  '): string {
  if (view.items.length === 0) return `${indent}(none)`;
  const lines = view.items.map((v) => variableLine(v, indent));
  if (view.more) {
    const of = view.total !== undefined ? `${view.items.length} of ${view.total} shown` : `the first ${view.items.length} shown; there are more`;
    lines.push(`${indent}(${of}; call variables with reference ${reference} for up to 50)`);
  }
  return lines.join('\n');
}

/** One frame per line, with its id. */
export function frameLine(frame: FrameView, cwd: string): string {
  if (frame.label) return `  ── async: ${frame.name} ──`;
  return `  frame ${frame.id}: ${frame.name} — ${location(frame, cwd)}`;
}

/** Indents every line. */
export function indent(text: string, prefix = '  '): string {
  return text
    .split('\n')
    .map((line) => `${prefix}${line}`)
    .join('\n');
}
