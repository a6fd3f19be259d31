import { cpSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { ToolResult } from '@agent-tools/core';
import { describe, expect, it } from 'vitest';
import { curl, requests, rxjs } from './differential/projects.js';
import { type Run, startRun, text } from './helpers.js';

// Issue 22, item 9 on clangd, typescript-language-server and pyright (gopls is in server-answers.system.test.ts): each
// server's common refusals, provoked on real code, are said as what they mean and what to do, with no absolute
// path and no server wrapper text, and nothing is changed.
const require = createRequire(import.meta.url);
const ABSOLUTE = /(^|[\s(])\/(usr|tmp|work|home|root|opt)\//;

/** Calls lsp_rename and checks it refused, changed no file of `files`, and said no absolute path. */
async function refused(run: Run, args: Record<string, unknown>, files: readonly string[]): Promise<string> {
  const before = files.map((f) => readFileSync(join(run.dir.path, f), 'utf8'));
  const result: ToolResult = await run.call('lsp_rename', args);
  const said = text(result);
  expect(result.isError, said).toBe(true);
  expect(said).not.toMatch(ABSOLUTE);
  expect(said).not.toMatch(/answered \S+ with an error|failed with message/);
  expect(files.map((f) => readFileSync(join(run.dir.path, f), 'utf8'))).toEqual(before);
  return said;
}

describe('servers\' refusals said as what they mean (item 9)', () => {
  it('clangd on curl\'s examples: a clash, a system-header function, a macro, too many files, a keyword', { timeout: 300_000 }, async () => {
    await using run = startRun({}, { indexWaitMs: 300_000 });
    curl.prepare(run.dir.path);
    const file = '10-at-a-time.c';
    const at = (line: number, symbol: string, new_name: string) => ({ file, line, symbol, new_name });
    expect(await refused(run, at(98, 'left', 'cm'), [file])).toBe(
      '`cm` already exists (10-at-a-time.c:98) where `left` (10-at-a-time.c:98) is visible; choose another name. Nothing changed.',
    );
    const unsupported = (symbol: string, line: number) =>
      `clangd does not rename \`${symbol}\` (10-at-a-time.c:${line}): it renames no macro, namespace or overloaded operator, and nothing declared in a system header (outside the project). To change it anyway, edit its uses. Nothing changed.`;
    expect(await refused(run, at(100, 'curl_easy_init', 'make_handle'), [file])).toBe(unsupported('curl_easy_init', 100));
    expect(await refused(run, at(87, 'MAX_PARALLEL', 'PARALLEL'), [file])).toBe(unsupported('MAX_PARALLEL', 87));
    expect(await refused(run, at(108, 'main', 'start'), [file, 'simple.c'])).toBe(
      'Renaming `main` (10-at-a-time.c:108) would change more than 50 files, more than clangd renames at once (a C name with external linkage, such as `main`, is one symbol in every file that declares it). Rename it file by file with edits instead. Nothing changed.',
    );
    expect(await refused(run, at(98, 'static', 'dynamic'), [file])).toBe(
      'clangd finds no symbol at `static` (10-at-a-time.c:98): it answers only for names it declares or uses (not a keyword, a package clause, a label or a comment). Address another name on the line, or another line. Nothing changed.',
    );
  });

  it('typescript-language-server: a standard-library name, a package\'s name, a built-in', { timeout: 300_000 }, async () => {
    await using run = startRun({}, { indexWaitMs: 300_000 });
    rxjs.prepare(run.dir.path);
    expect(await refused(run, { file: 'internal/Observable.ts', line: 288, symbol: 'Promise', new_name: 'Later' }, ['internal/Observable.ts'])).toBe(
      "`Promise` (internal/Observable.ts:288) is declared in TypeScript's standard library (lib.*.d.ts), outside the project's own code: typescript-language-server renames only names the project declares. Nothing changed.",
    );

    // A project using rxjs as an installed package (node_modules), with the package as npm ships it.
    await using app = startRun({}, { indexWaitMs: 300_000 });
    const pkg = dirname(require.resolve('rxjs/package.json'));
    const into = join(app.dir.path, 'node_modules', 'rxjs');
    mkdirSync(into, { recursive: true });
    cpSync(join(pkg, 'package.json'), join(into, 'package.json'));
    cpSync(join(pkg, 'dist', 'types'), join(into, 'dist', 'types'), { recursive: true, dereference: true });
    writeFileSync(join(app.dir.path, 'tsconfig.json'), JSON.stringify({ compilerOptions: { strict: true, noEmit: true, module: 'esnext', moduleResolution: 'bundler', target: 'es2017', lib: ['es2018', 'dom'] }, include: ['*.ts'] }));
    writeFileSync(join(app.dir.path, 'app.ts'), "import { Observable, of } from 'rxjs';\n\nexport const numbers: Observable<number> = of(1, 2, 3);\nexport const nothing = undefined;\n");
    const clean = await app.lsp({ action: 'diagnostics', file: 'app.ts' });
    expect(text(clean)).toMatch(/^No errors or warnings in app.ts/);
    expect(await refused(app, { file: 'app.ts', line: 3, symbol: 'Observable', new_name: 'Stream' }, ['app.ts'])).toBe(
      "`Observable` (app.ts:3) is declared in a package under node_modules, outside the project's own code: typescript-language-server renames only names the project declares. Nothing changed.",
    );
    expect(await refused(app, { file: 'app.ts', line: 4, symbol: 'undefined', new_name: 'missing' }, ['app.ts'])).toBe(
      'typescript-language-server cannot rename `undefined` (app.ts:4): it is not a name that can be renamed (a keyword, a literal or a built-in). Address a declared name. Nothing changed.',
    );
  });

  it('pyright (which declines with no error): a standard-library name and module say where they are; a keyword has no symbol', { timeout: 300_000 }, async () => {
    await using run = startRun({}, { indexWaitMs: 300_000 });
    requests.prepare(run.dir.path);
    const file = 'requests/sessions.py';
    const outside = (symbol: string, line: number, module: string) =>
      new RegExp(`^\`${symbol}\` \\(requests/sessions.py:${line}\\) is declared outside the working directory \\(\\S+ ${module}:\\d+\\): pyright renames only names the project declares\\. Nothing changed\\.$`);
    expect(await refused(run, { file, line: 11, symbol: 'OrderedDict', new_name: 'Ordered' }, [file])).toMatch(outside('OrderedDict', 11, 'collections/__init__.pyi?'));
    expect(await refused(run, { file, line: 8, symbol: 'os', new_name: 'system' }, [file])).toMatch(outside('os', 8, '(os.py|os/__init__.pyi)'));
    expect(await refused(run, { file, line: 61, symbol: 'def', new_name: 'fn' }, [file])).toBe(
      '`def` (requests/sessions.py:61) cannot be renamed: the server says there is no renameable symbol there (a keyword, a literal, or a name it does not resolve). Nothing changed.',
    );
  });
});
