import { writeFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Run, startRun, text } from './helpers.js';
import { BIOME_PROJECT, linkPackages } from './lint-project.js';

// A TypeScript project that extends ultracite's real Biome preset (test/fixtures/lint), as ultracite tells its users
// to, with the project's own @biomejs/biome (2.5.12, the version the preset was made for; the package installed beside
// @agent-tools/lsp is 2.6.9): tsserver is the primary server, `biome lsp-proxy` an additional one.
const files = { ...BIOME_PROJECT, 'src/a.ts': 'export const twice = (n: number): number => n * 2;\n' };

describe('Biome beside tsserver (biome lsp-proxy, ultracite preset)', () => {
  let run: Run;
  beforeAll(() => {
    run = startRun(files, {}, 20_000);
    linkPackages(run.dir.path, { '@biomejs/biome': 'ultracite-biome' }, { biome: '@biomejs/biome/bin/biome' });
  });
  afterAll(async () => {
    await run[Symbol.asyncDispose]();
  });

  it('reports a write that breaks a Biome rule as new, labelled biome, beside the type error', async () => {
    const written = text(await run.call('write', { path: 'src/a.ts', content: 'export function same(a: number, b: string): boolean {\n  return a == b;\n}\n' }));
    expect(written, written).toContain('2:12 error lint/suspicious/noDoubleEquals: Using == may be unsafe if you are relying on type coercion. [biome]');
    expect(written).toContain("2:10 error TS2367: This comparison appears to be unintentional because the types 'number' and 'string' have no overlap. [typescript]");
  });

  it('runs the project\'s own Biome, and says so in status', async () => {
    const status = text(await run.lsp({ action: 'status' }));
    expect(status).toMatch(/biome \(JavaScript\/TypeScript\/JSON\/CSS lint[^)]*\)\n {2}running for \.: pid \d+, .*binary node_modules\/\.bin\/biome/);
  });

  it('lists its fixes among the code actions', async () => {
    writeFileSync(run.dir.join('src/b.ts'), 'export function same(a: number, b: number): boolean {\n  return a == b;\n}\n');
    const list = await run.lsp({ action: 'code_actions', file: 'src/b.ts', line: 2, symbol: 'a' });
    const actions = (list.structured as { actions: Array<{ title: string; server?: string }> }).actions;
    expect(actions.filter((a) => a.server === 'biome').map((a) => a.title), text(list)).toContain('Use === instead.');
  });
});

describe('a Biome configuration that does not load never blocks tsserver', () => {
  const ran = 'Biome 2.5.12, node_modules/.bin/biome lsp-proxy read biome.jsonc in . (the working directory)';
  const todo = 'fix it (`npx biome check` in the project shows where each problem is), then call lsp with action "reload")';

  it('says why at once, without waiting for diagnostics Biome will never publish', async () => {
    await using run = startRun({ ...files, 'biome.jsonc': '{ "linter": { "rulez": {} } }\n' }, {}, 20_000);
    linkPackages(run.dir.path, { '@biomejs/biome': 'ultracite-biome' }, { biome: '@biomejs/biome/bin/biome' });
    const written = text(await run.call('write', { path: 'src/a.ts', content: 'export const s: string = 1;\n' }));
    expect(written, written).toContain("1:14 error TS2322: Type 'number' is not assignable to type 'string'. [typescript]");
    expect(written).toContain('biome: could not load biome.jsonc: Found an unknown key `rulez`.');
    expect(written).not.toContain('pending');
    const result = text(await run.lsp({ action: 'diagnostics', file: 'src/a.ts' }));
    expect(result.split('\n')[0]).toBe(`INCOMPLETE: biome: could not load biome.jsonc: Found an unknown key \`rulez\`. (${ran}; ${todo}`);
    // Biome checked nothing: the header names only the server that did.
    expect(result).toContain('src/a.ts: 1 error, 0 warnings (checked by typescript-language-server).');
  });

  it('on a first diagnostics call, names every error of a configuration that does not even parse, what ran and what to do', async () => {
    await using run = startRun({ ...files, 'biome.jsonc': '{ "linter": { "rulez": {} }\n' }, {}, 20_000);
    linkPackages(run.dir.path, { '@biomejs/biome': 'ultracite-biome' }, { biome: '@biomejs/biome/bin/biome' });
    // Biome logs the errors a moment after it starts: the wait for its diagnostics ends there, not at the timeout.
    const result = text(await run.lsp({ action: 'diagnostics', file: 'src/a.ts' }));
    expect(result.split('\n')[0]).toBe(
      `INCOMPLETE: biome: could not load biome.jsonc: expected \`}\` but instead the file ends; Found an unknown key \`rulez\`. (${ran}; ${todo}`,
    );
    expect(result).toContain('(checked by typescript-language-server).');
  });

  it('names the file an `extends` points to that does not exist (Biome says only "No such file or directory")', async () => {
    await using run = startRun({ ...files, 'biome.jsonc': '{ "extends": ["./nope.jsonc"] }\n' }, {}, 20_000);
    linkPackages(run.dir.path, { '@biomejs/biome': 'ultracite-biome' }, { biome: '@biomejs/biome/bin/biome' });
    const result = text(await run.lsp({ action: 'diagnostics', file: 'src/a.ts' }));
    expect(result.split('\n')[0]).toBe(
      `INCOMPLETE: biome: could not load biome.jsonc: No such file or directory (os error 2); it extends ./nope.jsonc, which does not exist (${ran}; ${todo}`,
    );
  });
});
