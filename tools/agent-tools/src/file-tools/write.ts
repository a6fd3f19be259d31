import { defineTool, resolveInside, textResult, wrapWrite, writeFileAtomic } from '@agent-tools/core';
import { plural } from '@agent-tools/core/internal';
import { z } from 'zod';
import { textLines } from './read.js';

/** Arguments of the harness's `write` tool. */
export const writeParameters = z.object({
  path: z.string().describe('File path relative to the working directory; folders are created.'),
  content: z.string().describe('The whole new content of the file.'),
});

/** The harness's whole-file writer, wrapped so new diagnostics of the file are appended to its result. */
export function writeTool(cwd: string) {
  return wrapWrite(
    defineTool({
      name: 'write',
      tier: 'write',
      parallelSafe: false,
      description:
        'Create or overwrite a file of the working directory with the given content. New compiler or linter problems the write introduced are reported in the result.',
      parameters: writeParameters,
      execute({ path, content }) {
        const target = resolveInside(cwd, path, { kind: 'file' });
        writeFileAtomic(target.absolute, content);
        const lines = textLines(content).length;
        const verb = target.exists ? 'Wrote' : 'Created';
        return textResult(`${verb} ${target.relative} (${plural(lines, 'line')}).`, { path: target.relative, created: !target.exists });
      },
    }),
  );
}
