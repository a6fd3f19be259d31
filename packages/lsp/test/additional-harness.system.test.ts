import { describe, expect, it } from 'vitest';
import { builtinServers, defineServer } from '../src/index.js';
import { startRun, text } from './helpers.js';
import { ESLINT_PACKAGES, ESLINT_PROJECT, linkPackages } from './lint-project.js';

// Issue 24: a harness adds its own additional server, keeps only some (`additional: [ids]`), and replaces a built-in
// one by id. Real servers: tsserver, and vscode-eslint-language-server under the harness's own ids and names.
const files = {
  ...ESLINT_PROJECT,
  'src/loose.ts': 'export function twice(n: number): number {\n  if (n === 0) {\n    return 0;\n  }\n  return n == 1 ? 2 : n * 2;\n}\n',
};

/** The status lines naming a server, by the name its line starts with. */
function statusNames(status: string): string[] {
  return status.split('\n').flatMap((line) => /^(\S[^(]*?) \(/.exec(line)?.[1] ?? []);
}

describe('a harness and the additional servers', () => {
  it("adds its own additional server, and `additional: ['lint2']` keeps it and leaves the built-in ESLint out", async () => {
    const lint2 = defineServer({ ...builtinServers.eslint, id: 'lint2', name: 'lint2-server' });
    await using run = startRun(files, { servers: [lint2], additional: ['lint2'] }, 20_000);
    linkPackages(run.dir.path, ESLINT_PACKAGES);
    const body = text(await run.lsp({ action: 'diagnostics', file: 'src/loose.ts' }));
    expect(body).toContain('(checked by typescript-language-server, lint2-server).');
    expect(body).toContain("5:12 warning eqeqeq: Expected '===' and instead saw '=='. [eslint]");
    const names = statusNames(text(await run.lsp({ action: 'status' })));
    expect(names).toContain('lint2-server');
    expect(names).not.toContain('eslint');
    expect(names).not.toContain('biome');
    expect(text(await run.lsp({ action: 'status' }))).toContain('\nTurned off by the harness (not asked in this run): eslint, biome.');
  });

  it('replaces the built-in ESLint by its id', async () => {
    await using run = startRun(files, { servers: [defineServer({ ...builtinServers.eslint, name: 'project-eslint' })] }, 20_000);
    linkPackages(run.dir.path, ESLINT_PACKAGES);
    const body = text(await run.lsp({ action: 'diagnostics', file: 'src/loose.ts' }));
    expect(body).toContain('(checked by typescript-language-server, project-eslint).');
    expect(body).toContain('eqeqeq');
    const names = statusNames(text(await run.lsp({ action: 'status' })));
    expect(names).toContain('project-eslint');
    expect(names).not.toContain('eslint');
    expect(names).toContain('biome');
  });
});
