import { describe, expect, it } from 'vitest';
import { startRun, text } from './helpers.js';
import { ESLINT_PACKAGES, ESLINT_PROJECT, linkPackages } from './lint-project.js';

// A file the project's ESLint configuration ignores is not linted: ESLint's server checked nothing, so it must not be
// named among the servers that checked the file (it was, and the file read as lint-clean), and its notice ("File
// ignored because of a matching ignore pattern") is not a finding. Real servers: tsserver and ESLint.
const loose = 'export function twice(n: number): number {\n  return n == 1 ? 2 : n * 2;\n}\n';
const files = {
  ...ESLINT_PROJECT,
  'eslint.config.mjs': ESLINT_PROJECT['eslint.config.mjs'].replace('export default [{', "export default [{ ignores: ['src/gen/**'] }, {"),
  'src/gen/loose.ts': loose,
  'src/loose.ts': loose,
};

describe("a file the project's ESLint configuration ignores", () => {
  it('is said to be ignored by eslint, not checked by it; other files are linted as before; a write reports no notice', async () => {
    await using run = startRun(files, {}, 20_000);
    linkPackages(run.dir.path, ESLINT_PACKAGES);
    const ignored = await run.lsp({ action: 'diagnostics', file: 'src/gen/loose.ts' });
    expect(text(ignored)).toBe("No errors or warnings in src/gen/loose.ts (checked by typescript-language-server; not by eslint: its configuration ignores this file).");
    expect(ignored.structured).toMatchObject({ ignoredBy: ['eslint'], total: 0 });
    const linted = text(await run.lsp({ action: 'diagnostics', file: 'src/loose.ts' }));
    expect(linted).toContain('src/loose.ts: 0 errors, 1 warning (checked by typescript-language-server, eslint).');
    expect(linted).toContain("2:12 warning eqeqeq: Expected '===' and instead saw '=='. [eslint]");
    // Nor is its notice a problem of the line for code actions.
    const actions = text(await run.lsp({ action: 'code_actions', file: 'src/gen/loose.ts', line: 1, symbol: 'twice' }));
    expect(actions).not.toContain('File ignored');
    const written = text(await run.call('write', { path: 'src/gen/more.ts', content: 'export const same = 1 == 1;\n' }));
    expect(written).toBe('Wrote src/gen/more.ts.\nNo new diagnostics in src/gen/more.ts.');
  });
});
