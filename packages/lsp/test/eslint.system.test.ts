import { readFileSync, writeFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Run, startRun, text } from './helpers.js';
import { ESLINT_CONFIG, ESLINT_PACKAGES, ESLINT_PROJECT, linkPackages } from './lint-project.js';

// A TypeScript project linted by the real flat config of vscode-html-languageservice (test/fixtures/lint), with the
// project's own eslint and typescript-eslint: tsserver is the primary server, vscode-eslint-language-server an
// additional one.
const files = {
  ...ESLINT_PROJECT,
  'src/clean.ts': 'export function twice(n: number): number {\n  if (n === 0) {\n    return 0;\n  }\n  return n * 2;\n}\n',
};

describe('ESLint beside tsserver (vscode-eslint-language-server, real flat config)', () => {
  let run: Run;
  beforeAll(() => {
    run = startRun(files, {}, 20_000);
    linkPackages(run.dir.path, ESLINT_PACKAGES, { eslint: 'eslint/bin/eslint.js' });
  });
  afterAll(async () => {
    await run[Symbol.asyncDispose]();
  });

  it('reports a write that breaks a lint rule as new, labelled eslint, beside a type error labelled typescript', async () => {
    const written = await run.call('write', {
      path: 'src/clean.ts',
      content: 'export function twice(n: number): number {\n  if (n == 0) return 0;\n  const s: string = n;\n  return n * 2;\n}\n',
    });
    const body = text(written);
    expect(body).toContain('New diagnostics in src/clean.ts (3):');
    expect(body).toContain("2:9 warning eqeqeq: Expected '===' and instead saw '=='. [eslint]");
    expect(body).toContain("2:15 warning curly: Expected { after 'if' condition. [eslint]");
    expect(body).toContain("3:9 error TS2322: Type 'number' is not assignable to type 'string'. [typescript]");
  });

  it('keeps the sources apart in the ledger: a second write that fixes the type error reports nothing new', async () => {
    const again = await run.call('write', {
      path: 'src/clean.ts',
      content: 'export function twice(n: number): number {\n  if (n == 0) return 0;\n  const s: string = String(n);\n  return s.length * 2;\n}\n',
    });
    expect(text(again)).not.toContain('New diagnostics');
  });

  it('merges both servers in the diagnostics of a file', async () => {
    const result = await run.lsp({ action: 'diagnostics', file: 'src/clean.ts' });
    const body = text(result);
    expect(body).toContain('src/clean.ts: 0 errors, 2 warnings (checked by typescript-language-server, eslint).');
    expect(body).toContain('[eslint]');
    expect((result.structured as { diagnostics: Array<{ source: string; code: string }> }).diagnostics.map((d) => `${d.source}:${d.code}`)).toEqual(['eslint:eqeqeq', 'eslint:curly']);
  });

  it('lists ESLint fixes among the code actions, and lsp_fix applies its autofix through the all-or-nothing path', async () => {
    const list = await run.lsp({ action: 'code_actions', file: 'src/clean.ts', line: 2, symbol: 'n' });
    const actions = (list.structured as { actions: Array<{ number: number; title: string; server?: string }> }).actions;
    const curly = actions.find((a) => a.title === 'Fix this curly problem');
    expect(curly, text(list)).toMatchObject({ server: 'eslint' });
    expect(text(list)).toContain(`${curly?.number}. Fix this curly problem [quickfix, preferred] (eslint)`);
    const fixed = await run.call('lsp_fix', { file: 'src/clean.ts', number: curly?.number });
    expect(fixed.isError, text(fixed)).toBe(false);
    expect(text(fixed)).toContain('Applied "Fix this curly problem"');
    expect(readFileSync(run.dir.join('src/clean.ts'), 'utf8')).toContain('if (n == 0) {return 0;}');
    const after = await run.lsp({ action: 'diagnostics', file: 'src/clean.ts' });
    expect(text(after)).not.toContain('curly');
    expect(text(after)).toContain('eqeqeq');
  });

  it('merges tsc and eslint in diagnostics "*"', async () => {
    await run.call('write', { path: 'src/other.ts', content: 'interface lower { x: number }\nexport const y: lower = { x: "1" };\n' });
    const result = await run.lsp({ action: 'diagnostics', file: '*' });
    const body = text(result);
    expect(body, body).toContain('verified: TypeScript/JavaScript at . by tsc --noEmit -p tsconfig.json: 1 error, 0 warnings');
    expect(body).toContain('verified: JavaScript/TypeScript lint at . by eslint --format json .: 0 errors, 2 warnings');
    expect(body).toContain("2:27 error TS2322: Type 'string' is not assignable to type 'number'. [tsc]");
    expect(body).toContain('1:11 warning @typescript-eslint/naming-convention: Interface name `lower` must match one of the following formats: PascalCase [eslint]');
  });

  it('leaves the additional server out of a workspace search (it has no symbols): the answer is complete', async () => {
    const result = text(await run.lsp({ action: 'symbols', query: 'twice' }));
    expect(result).not.toContain('INCOMPLETE');
    expect(result).toContain('twice');
  });

  it('shows the additional server in status', async () => {
    const body = text(await run.lsp({ action: 'status' }));
    expect(body).toContain('eslint (JavaScript/TypeScript lint; .js .jsx .mjs .cjs .ts .tsx …; additional: diagnostics and code actions beside the primary server)');
    // Under `pnpm test` the package's node_modules/.bin is on PATH, so the binary is named by its path there.
    expect(body).toMatch(/\n {2}running for \.: pid \d+, .*binary (?:vscode-eslint-language-server from vscode-langservers-extracted 4\.10\.0|\/\S*\/node_modules\/\.bin\/vscode-eslint-language-server)/);
    const forFile = text(await run.lsp({ action: 'status', file: 'src/clean.ts' }));
    expect(forFile).toContain(
      'For src/clean.ts: typescript-language-server answers, with root . (the working directory).\n  eslint adds its diagnostics and code actions, with root . (the working directory).',
    );
  });
});

describe('an ESLint configuration that throws never blocks tsserver', () => {
  let run: Run;
  beforeAll(() => {
    run = startRun({ ...files, 'eslint.config.mjs': 'throw new Error("this configuration refuses to load");\nexport default [];\n' }, {}, 20_000);
    linkPackages(run.dir.path, ESLINT_PACKAGES);
  });
  afterAll(async () => {
    await run[Symbol.asyncDispose]();
  });

  it('says why in the first diagnostics answer of a write, and tsserver answers anyway', async () => {
    const written = await run.call('write', { path: 'src/clean.ts', content: 'export const s: string = 1;\n' });
    const body = text(written);
    expect(body).toContain("1:14 error TS2322: Type 'number' is not assignable to type 'string'. [typescript]");
    expect(body).toContain('1 warning: eslint: could not load eslint.config.mjs: this configuration refuses to load (this file was not checked by eslint) [eslint]');
    const second = await run.call('write', { path: 'src/clean.ts', content: 'export const s: string = 2;\n' });
    expect(text(second)).not.toContain('could not load');
  });

  it('says why in the diagnostics action and in status', async () => {
    const result = await run.lsp({ action: 'diagnostics', file: 'src/clean.ts' });
    expect(text(result).split('\n')[0]).toBe('INCOMPLETE: eslint: could not load eslint.config.mjs: this configuration refuses to load');
    // ESLint checked nothing: the header names only the server that did.
    expect(text(result)).toContain('(checked by typescript-language-server).');
    expect(text(await run.lsp({ action: 'status' }))).toContain('NOT CHECKING the last file asked about: could not load eslint.config.mjs: this configuration refuses to load');
  });

  it('makes the eslint part of diagnostics "*" NOT VERIFIED, with its error on one line and what to do', async () => {
    const body = text(await run.lsp({ action: 'diagnostics', file: '*' }));
    const part = body.split('\n').find((line) => line.includes('by eslint --format json .'));
    expect(part, body).toMatch(/^ {2}NOT VERIFIED: JavaScript\/TypeScript lint at \. by eslint --format json \.: eslint could not lint the project \(exit 2\): /);
    // ESLint's own error, without its banner and stack frames, which pushed the rest of the answer out of its part.
    expect(part).toContain('Error: this configuration refuses to load');
    expect(part).toContain('; fix that, then call lsp diagnostics "*" again');
    expect(body).not.toContain('Oops!');
    expect(body).not.toMatch(/^\s+at /m);
    expect(body).toContain('do not treat them as clean');
  });

  it('checks the file once the configuration is fixed and the servers of the file are reloaded', async () => {
    writeFileSync(run.dir.join('eslint.config.mjs'), ESLINT_CONFIG);
    const reloaded = text(await run.lsp({ action: 'reload', file: 'src/clean.ts' }));
    expect(reloaded).toContain('eslint (root .)');
    writeFileSync(run.dir.join('src/clean.ts'), 'export function f(n: number): number {\n  if (n == 0) return 1;\n  return n;\n}\n');
    const result = text(await run.lsp({ action: 'diagnostics', file: 'src/clean.ts' }));
    expect(result).toContain("2:9 warning eqeqeq: Expected '===' and instead saw '=='. [eslint]");
    expect(result).not.toContain('INCOMPLETE');
  });
});

describe('an ESLint configuration without the project\'s eslint package', () => {
  it('does not start ESLint, says so in status and diagnostics, and tsserver answers', async () => {
    await using run = startRun(files, {}, 20_000);
    const status = text(await run.lsp({ action: 'status' }));
    expect(status).toContain("cannot start for .: the project's own eslint package was not found (node_modules/eslint in . or a folder above it); install it in the project (npm i -D eslint)");
    expect(text(await run.lsp({ action: 'status', file: 'src/clean.ts' }))).toContain("\n  eslint cannot add its diagnostics (root .): the project's own eslint package was not found");
    const result = await run.lsp({ action: 'diagnostics', file: 'src/clean.ts' });
    expect(text(result).split('\n')[0]).toBe("INCOMPLETE: eslint: cannot start: the project's own eslint package was not found (node_modules/eslint in . or a folder above it); install it in the project (npm i -D eslint)");
    expect(text(result)).toContain('No errors or warnings in src/clean.ts (checked by typescript-language-server).');
  });

  it('is not asked at all when a harness turns additional servers off, and status says they are off', async () => {
    await using run = startRun(files, { additional: false }, 20_000);
    const result = await run.lsp({ action: 'diagnostics', file: 'src/clean.ts' });
    expect(text(result)).toBe('No errors or warnings in src/clean.ts (checked by typescript-language-server).');
    const status = text(await run.lsp({ action: 'status' }));
    // Off, and said to be off: a model in a project with an ESLint config can tell lint is not checked in this run.
    expect(status).toContain('\nTurned off by the harness (not asked in this run): eslint, biome.');
    expect(status.replace(/\nTurned off by the harness.*/, '')).not.toContain('eslint');
  });
});
