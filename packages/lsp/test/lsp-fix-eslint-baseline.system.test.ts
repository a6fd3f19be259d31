import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { startRun, text } from './helpers.js';
import { ESLINT_PACKAGES, ESLINT_PROJECT, linkPackages } from './lint-project.js';

// ESLint's server handles one request at a time, and its fixes are commands whose edits come back through
// workspace/applyEdit. A file never written in the run has no baseline yet: asked for while the command waits for
// the applyEdit answer, ESLint could not give it, the baseline ran out its budget (about ten seconds), and the fix's
// answer said which findings are new "cannot be told".
const files = {
  ...ESLINT_PROJECT,
  'src/loose.ts': 'export function twice(n: number): number {\n  if (n == 0) return 0;\n  return n * 2;\n}\n',
};

describe('lsp_fix of an ESLint autofix in a file not yet written in the run', () => {
  it('knows the file diagnostics from before the fix, so it tells what the fix introduced', async () => {
    await using run = startRun(files, {}, 20_000);
    linkPackages(run.dir.path, ESLINT_PACKAGES, { eslint: 'eslint/bin/eslint.js' });
    const list = await run.lsp({ action: 'code_actions', file: 'src/loose.ts', line: 2, symbol: 'n' });
    const actions = (list.structured as { actions: Array<{ number: number; title: string }> }).actions;
    const curly = actions.find((a) => a.title === 'Fix this curly problem');
    expect(curly, text(list)).toBeDefined();
    const fixed = await run.call('lsp_fix', { file: 'src/loose.ts', number: curly?.number });
    expect(fixed.isError, text(fixed)).toBe(false);
    expect(readFileSync(run.dir.join('src/loose.ts'), 'utf8')).toContain('if (n == 0) {return 0;}');
    // The eqeqeq warning was there before the fix: neither new nor of unknown age.
    expect(text(fixed)).not.toContain('not known in time');
    expect(text(fixed)).not.toContain('eqeqeq');
  });
});
