import { chmodSync, readFileSync, statSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Run, startRun, text } from './helpers.js';

// U+2028 (LINE SEPARATOR) and U+2029 (PARAGRAPH SEPARATOR) are line breaks to tsserver and not to LSP: every
// position after one on its line is a line off unless translated.
const LS = '\u2028';
const PS = '\u2029';

const files = {
  'tsconfig.json': JSON.stringify({ compilerOptions: { target: 'ES2022', module: 'NodeNext', moduleResolution: 'NodeNext', strict: true, noEmit: true }, include: ['src'] }),
  'package.json': '{"type":"module"}',
  'src/greet.ts': [
    `export const banner = 'hello${LS}world'; export function greet(name: string): string { return banner + name; }`,
    `// a comment with a separator${PS} inside`,
    'export const again = greet("x");',
    '',
  ].join('\n'),
  'src/use.ts': ["import { greet } from './greet.js';", '', `const note = '${LS}'; export const out = greet('y');`, ''].join('\n'),
  'src/lib.ts': ['export function helper(): number {', '  return 1;', '}', ''].join('\n'),
  'src/main.ts': ["import { helper } from './lib.js';", '', 'export const value = helper() + helper();', ''].join('\n'),
  'src/locked.ts': ["import { helper } from './lib.js';", '', 'export const locked = helper();', ''].join('\n'),
};

describe('positions that cannot corrupt (typescript-language-server)', () => {
  let run: Run;
  beforeAll(() => {
    run = startRun(files);
  });
  afterAll(async () => {
    await run[Symbol.asyncDispose]();
  });

  it('definition and references after a U+2028 on the same line land on the right line and column', async () => {
    const definition = await run.lsp({ action: 'definition', file: 'src/use.ts', line: 3, symbol: 'greet' });
    expect(text(definition)).toContain('src/greet.ts\n  1:54');
    expect(definition.structured).toMatchObject({ locations: [{ file: 'src/greet.ts', line: 1, column: 54 }] });
    const references = await run.lsp({ action: 'references', file: 'src/greet.ts', line: 1, symbol: 'greet' });
    expect(references.structured).toMatchObject({ total: 4 });
    const lines = (references.structured as { locations: Array<{ file: string; line: number; column: number }> }).locations.map((l) => `${l.file}:${l.line}:${l.column}`);
    expect(lines.sort()).toEqual(['src/greet.ts:1:54', 'src/greet.ts:3:22', 'src/use.ts:1:10', 'src/use.ts:3:38'].sort());
  });

  it('a rename across files with separators writes the new name exactly where the old one was', async () => {
    const before = { greet: readFileSync(run.dir.join('src/greet.ts'), 'utf8'), use: readFileSync(run.dir.join('src/use.ts'), 'utf8') };
    const result = await run.call('lsp_rename', { file: 'src/greet.ts', line: 3, symbol: 'greet', new_name: 'welcome' });
    expect(result.isError, text(result)).toBe(false);
    expect(text(result)).toContain('Renamed `greet` (src/greet.ts:3) to `welcome`: 4 edits in 2 files.');
    expect(readFileSync(run.dir.join('src/greet.ts'), 'utf8')).toBe(before.greet.replaceAll('greet(', 'welcome('));
    expect(readFileSync(run.dir.join('src/use.ts'), 'utf8')).toBe(before.use.replace('{ greet }', '{ welcome }').replace('greet(', 'welcome('));
  });

  it('renaming at a use in an importing file renames the symbol itself, not an import alias', async () => {
    const result = await run.call('lsp_rename', { file: 'src/main.ts', line: 3, symbol: 'helper', occurrence: 1, new_name: 'assist' });
    expect(result.isError, text(result)).toBe(false);
    expect(readFileSync(run.dir.join('src/lib.ts'), 'utf8')).toContain('export function assist(): number {');
    expect(readFileSync(run.dir.join('src/main.ts'), 'utf8')).toBe("import { assist } from './lib.js';\n\nexport const value = assist() + assist();\n");
    expect(readFileSync(run.dir.join('src/locked.ts'), 'utf8')).toContain("import { assist } from './lib.js';");
  });

  it('a read-only file refuses the whole rename, naming the file, and nothing changes', async () => {
    const locked = run.dir.join('src/locked.ts');
    chmodSync(locked, 0o444);
    const snapshot = ['src/lib.ts', 'src/main.ts', 'src/locked.ts'].map((f) => readFileSync(run.dir.join(f), 'utf8'));
    const result = await run.call('lsp_rename', { file: 'src/lib.ts', line: 1, symbol: 'assist', new_name: 'aid' });
    expect(result.isError).toBe(true);
    expect(text(result)).toContain('The edit would change src/locked.ts (mode 444), which is read-only; nothing was changed.');
    expect(['src/lib.ts', 'src/main.ts', 'src/locked.ts'].map((f) => readFileSync(run.dir.join(f), 'utf8'))).toEqual(snapshot);
    expect(statSync(locked).mode & 0o777).toBe(0o444);
    chmodSync(locked, 0o644);
  });

  it('the structured data of a rename and its new diagnostics are workspace-relative', async () => {
    run.dir.write({ 'src/clash.ts': 'export const first = 1;\nexport const second = 2;\n' });
    const result = await run.call('lsp_rename', { file: 'src/clash.ts', line: 1, symbol: 'first', new_name: 'second' });
    expect(result.isError, text(result)).toBe(false);
    const json = JSON.stringify(result.structured);
    expect(json).not.toContain(run.dir.path);
    expect(result.structured).toMatchObject({ files: [{ file: 'src/clash.ts' }], diagnostics: [{ file: 'src/clash.ts', newDiagnostics: [{ file: 'src/clash.ts' }, { file: 'src/clash.ts' }] }] });
  });
});

describe('a byte order mark that tsserver drops from files it reads from disk', () => {
  const bom = '\uFEFF';
  const project = {
    'tsconfig.json': files['tsconfig.json'],
    'package.json': files['package.json'],
    'src/lib.ts': `${bom}export function helper(): number { return 1; }\n`,
    'src/main.ts': "import { helper } from './lib.js';\n\nexport const value = helper();\n",
    'src/other.ts': `${bom}import { helper } from './lib.js'; export const other = helper();\n`,
  };

  it('columns on the first line of a file that is not open are where LSP counts them, and a rename across it is byte-exact', async () => {
    await using run = startRun(project);
    const references = await run.lsp({ action: 'references', file: 'src/main.ts', line: 3, symbol: 'helper' });
    const found = (references.structured as { locations: Array<{ file: string; line: number; column: number }> }).locations.map((l) => `${l.file}:${l.line}:${l.column}`);
    // The BOM is one UTF-16 unit: `helper` is the 18th unit of lib.ts's first line and the 11th of other.ts's.
    expect(found.sort()).toEqual(['src/lib.ts:1:18', 'src/main.ts:1:10', 'src/main.ts:3:22', 'src/other.ts:1:11', 'src/other.ts:1:58'].sort());
    const result = await run.call('lsp_rename', { file: 'src/main.ts', line: 3, symbol: 'helper', new_name: 'assist' });
    expect(result.isError, text(result)).toBe(false);
    expect(text(result)).toContain('Renamed `helper` (src/main.ts:3) to `assist`: 5 edits in 3 files.');
    for (const file of ['src/lib.ts', 'src/main.ts', 'src/other.ts'] as const) {
      expect(readFileSync(run.dir.join(file), 'utf8')).toBe(project[file].replaceAll('helper', 'assist'));
    }
  });
});
