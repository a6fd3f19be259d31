import { capList, defineTool, errorResult, readRegularFileSync, resolveInside, textResult } from '@agent-tools/core';
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
      const lines = readRegularFileSync(target.absolute, target.relative).toString('utf8').split('\n');
      const window = capList(lines.slice(offset - 1), limit, 'lines shown');
      if (window.total === 0) return errorResult(`${target.relative} has ${lines.length} lines; offset ${offset} is past the end.`);
      const body = window.items.map((line, i) => `${String(offset + i).padStart(5)}\t${line}`).join('\n');
      const note = window.note ? `\n(${window.note}; continue with offset ${offset + window.items.length})` : '';
      return textResult(`${target.relative}\n${body}${note}`, { path: target.relative, lines: lines.length });
    },
  });
}
