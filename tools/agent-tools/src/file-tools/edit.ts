import { defineTool, errorResult, readRegularFileSync, resolveInside, textResult, wrapWrite, writeFileAtomic } from '@agent-tools/core';
import { z } from 'zod';

/** Arguments of the harness's `edit` tool. */
export const editParameters = z.object({
  path: z.string().describe('File path relative to the working directory.'),
  old_text: z.string().min(1).describe('Exact text to replace; it must occur once unless replace_all is set.'),
  new_text: z.string().describe('The replacement text.'),
  replace_all: z.boolean().optional().describe('Replace every occurrence instead of exactly one.'),
});

/** The harness's exact-text editor, wrapped so new diagnostics of the file are appended to its result. */
export function editTool(cwd: string) {
  return wrapWrite(
    defineTool({
      name: 'edit',
      tier: 'write',
      parallelSafe: false,
      description:
        'Replace exact text in a file of the working directory. old_text must match the file exactly (whitespace included) and occur once, or set replace_all. New compiler or linter problems the edit introduced are reported in the result.',
      parameters: editParameters,
      execute({ path, old_text, new_text, replace_all }) {
        const target = resolveInside(cwd, path, { mustExist: true, kind: 'file' });
        const before = readRegularFileSync(target.absolute, target.relative).toString('utf8');
        const count = before.split(old_text).length - 1;
        if (count === 0) {
          return errorResult(`old_text was not found in ${target.relative}. Read the file and copy the text exactly.`);
        }
        if (count > 1 && !replace_all) {
          return errorResult(
            `old_text occurs ${count} times in ${target.relative}. Include more surrounding lines to make it unique, or set replace_all.`,
          );
        }
        const after = replace_all ? before.split(old_text).join(new_text) : before.replace(old_text, () => new_text);
        if (after === before) {
          return errorResult(
            `Nothing changed: new_text is identical to old_text, so ${target.relative} was left as it was. Pass the text the file should contain instead.`,
          );
        }
        writeFileAtomic(target.absolute, after);
        return textResult(`Edited ${target.relative} (${replace_all ? count : 1} replacement${count > 1 && replace_all ? 's' : ''}).`, {
          path: target.relative,
          replacements: replace_all ? count : 1,
        });
      },
    }),
  );
}
