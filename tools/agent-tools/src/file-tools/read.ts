import { defineTool, errorResult, readRegularFileSync, resolveInside, textResult } from '@agent-tools/core';
import { z } from 'zod';

/** Arguments of the harness's `read` tool. */
export const readParameters = z.object({
  path: z.string().describe('File path relative to the working directory.'),
  offset: z.number().int().min(1).optional().describe('First line to read, 1-based (default 1).'),
  limit: z.number().int().min(1).max(5000).optional().describe('How many lines to read (default 2000).'),
});

/** The harness's plain file reader (a real harness has its own). */
export function readTool(cwd: string) {
  return defineTool({
    name: 'read',
    tier: 'read',
    parallelSafe: true,
    description:
      'Read a text file of the working directory. Lines come back numbered (1-based); use offset and limit for long files.',
    parameters: readParameters,
    execute({ path, offset = 1, limit = 2000 }) {
      const target = resolveInside(cwd, path, { mustExist: true, kind: 'file' });
      const lines = textLines(readRegularFileSync(target.absolute, target.relative).toString('utf8'));
      const total = lines.length;
      if (total === 0) return textResult(`${target.relative} is empty (0 lines).`, { path: target.relative, lines: 0 });
      if (offset > total) return errorResult(`${target.relative} has ${total} lines; offset ${offset} is past the end.`);
      const shown = lines.slice(offset - 1, offset - 1 + limit);
      const last = offset + shown.length - 1;
      const body = shown.map((line, i) => `${String(offset + i).padStart(5)}\t${line}`).join('\n');
      // The count is the file's, whatever the window: a model pages by it.
      const more = last < total ? `; continue with offset ${last + 1}` : '';
      const note = offset > 1 || more ? `\n(lines ${offset}-${last} of ${total} shown${more})` : '';
      return textResult(`${target.relative}\n${body}${note}`, { path: target.relative, lines: total });
    },
  });
}

/** A file's lines as editors and `wc -l` count them: a final line break ends the last line, it starts no new one. */
export function textLines(text: string): string[] {
  if (text === '') return [];
  const lines = text.split('\n');
  if (lines.at(-1) === '') lines.pop();
  return lines;
}
