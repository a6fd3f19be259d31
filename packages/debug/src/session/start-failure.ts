import { existsSync } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';
import { outputView } from '../format/output.js';
import { indent, showPath } from '../format/text.js';
import type { OutputBuffer } from './output-buffer.js';

/** How much of what was printed while a session started goes into its failure. */
const FAILURE_OUTPUT_CHARS = 4000;

/**
 * What a failed start says: the adapter's reason, then what was printed while it started (delve's compiler
 * messages, a crash's traceback), with compiler-style `path:line:` locations made relative to the working
 * directory. Adapters tend to say "check the debug console": the console is here, in the answer.
 */
export function describeStartFailure(detail: string, output: OutputBuffer, where: { readonly buildDir: string; readonly cwd: string }): string {
  const view = outputView(output.since(0, FAILURE_OUTPUT_CHARS));
  const reason = detail.replace(/:?\s*Check the debug console for details\.?/i, '.').replace(/(Failed to launch: )+/g, 'Failed to launch: ');
  if (!view.text.trim()) return reason;
  const located = view.text.replace(/^(\S+?\.\w+)(?=:\d+(?::\d+)?:)/gm, (path) => {
    const absolute = isAbsolute(path) ? path : resolve(where.buildDir, path);
    return existsSync(absolute) ? showPath(absolute, where.cwd) : path;
  });
  const note = view.note ? ` (${view.note})` : '';
  return `${reason}\nWhat it printed while starting${note}:\n${indent(located.replace(/\n$/, ''), '  | ')}`;
}
