import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Run, startRun, text } from './helpers.js';

const tsProject = {
  'tsconfig.json': JSON.stringify({ compilerOptions: { target: 'ES2022', module: 'NodeNext', moduleResolution: 'NodeNext', strict: true, noEmit: true }, include: ['src'] }),
  'package.json': '{"type":"module"}',
  'src/legacy.ts': "export const old: number = 'already broken';\nexport const fine = 1;\n",
};

const ERROR = "error TS2322: Type 'string' is not assignable to type 'number'.";

describe('diagnostics on write with typescript-language-server', () => {
  let run: Run;
  beforeAll(async () => {
    run = startRun(tsProject);
    // Start the server and load the project first: these tests are about warm writes (cold ones may be pending).
    await run.lsp({ action: 'diagnostics', file: 'src/legacy.ts' });
  });
  afterAll(async () => {
    await run[Symbol.asyncDispose]();
  });

  it('reports an introduced error once; moved is not new; fixed and back is new; a second copy is new', async () => {
    const broken = "export const n: number = 'x';\n";
    const first = await run.call('write', { path: 'src/a.ts', content: broken });
    expect(text(first)).toContain('New diagnostics in src/a.ts (1):');
    expect(text(first)).toContain(`1:14 ${ERROR}`);

    const again = await run.call('write', { path: 'src/a.ts', content: broken });
    expect(text(again)).toContain('No new diagnostics in src/a.ts.');

    const moved = await run.call('write', { path: 'src/a.ts', content: `// moved\n\n\n\n${broken}` });
    expect(text(moved)).toContain('No new diagnostics in src/a.ts.');

    const fixed = await run.call('write', { path: 'src/a.ts', content: 'export const n: number = 1;\n' });
    expect(text(fixed)).toContain('No new diagnostics in src/a.ts.');

    const back = await run.call('write', { path: 'src/a.ts', content: broken });
    expect(text(back)).toContain(`1:14 ${ERROR}`);

    const twice = await run.call('write', { path: 'src/a.ts', content: `${broken}export const m: number = 'y';\n` });
    expect(text(twice)).toContain('New diagnostics in src/a.ts (1):');
    expect(text(twice)).toContain(`2:14 ${ERROR}`);
    expect(text(twice)).not.toContain(`1:14 ${ERROR}`);
  });

  it('does not report problems a file already had before its first write', async () => {
    const result = await run.call('write', {
      path: 'src/legacy.ts',
      content: "export const old: number = 'already broken';\nexport const fine = 2;\n",
    });
    expect(text(result)).toContain('No new diagnostics in src/legacy.ts.');
  });

  it('a created file importing a file created just before has no stale "cannot find module"', async () => {
    const b = await run.call('write', { path: 'src/b.ts', content: 'export const b = 1;\n' });
    expect(text(b)).toContain('No new diagnostics in src/b.ts.');
    const c = await run.call('write', { path: 'src/c.ts', content: "import { b } from './b.js';\nexport const c: number = b;\n" });
    expect(text(c)).toContain('No new diagnostics in src/c.ts.');
  });

  it('two created files importing each other, written at once, have no stale errors', async () => {
    const result = await run.call('write_many', {
      files: {
        'src/d.ts': "import { e } from './e.js';\nexport const d: number = e + 1;\n",
        'src/e.ts': 'export const e = 2;\n',
      },
    });
    expect(text(result)).toContain('No new diagnostics in src/d.ts, src/e.ts.');
  });

  it('reports a type error a write introduces through another file', async () => {
    await run.call('write', { path: 'src/f.ts', content: 'export const f = 1;\n' });
    await run.call('write', { path: 'src/g.ts', content: "import { f } from './f.js';\nexport const g: number = f;\n" });
    await run.call('write', { path: 'src/f.ts', content: "export const f = 'one';\n" });
    const result = await run.lsp({ action: 'diagnostics', file: 'src/g.ts' });
    expect(text(result)).toContain(`2:14 ${ERROR}`);
  });

  it('a file no server handles gets a short note', async () => {
    const result = await run.call('write', { path: 'NOTES.md', content: '# notes\n' });
    expect(text(result)).toBe('Wrote NOTES.md.\nNOTES.md was not checked: no language server handles .md files.');
  });

  it('gives structured data for programs', async () => {
    const result = await run.call('write', { path: 'src/h.ts', content: "export const h: number = 'h';\n" });
    expect(result.structured).toMatchObject({
      diagnostics: [{ file: 'src/h.ts', state: 'checked', newDiagnostics: [{ line: 1, column: 14, severity: 'error', code: 'TS2322' }] }],
    });
  });
});

describe('diagnostics on write with pyright', () => {
  let run: Run;
  beforeAll(async () => {
    run = startRun({ 'pyproject.toml': '[project]\nname = "demo"\nversion = "0.1.0"\n', 'warm.py': 'x = 1\n' });
    await run.lsp({ action: 'diagnostics', file: 'warm.py' });
  });
  afterAll(async () => {
    await run[Symbol.asyncDispose]();
  });

  it('reports an introduced type error once and nothing after the fix', async () => {
    const broken = 'def half(x: int) -> int:\n    return x / 2\n';
    const first = await run.call('write', { path: 'calc.py', content: broken });
    expect(text(first)).toContain('New diagnostics in calc.py (1):');
    expect(text(first)).toMatch(/2:12 error reportReturnType: Type "float" is not assignable to return type "int"/);
    const again = await run.call('write', { path: 'calc.py', content: `# moved\n${broken}` });
    expect(text(again)).toContain('No new diagnostics in calc.py.');
    const fixed = await run.call('write', { path: 'calc.py', content: 'def half(x: int) -> int:\n    return x // 2\n' });
    expect(text(fixed)).toContain('No new diagnostics in calc.py.');
  });

  it('a created module imported by a created module resolves', async () => {
    await run.call('write', { path: 'util.py', content: 'def double(x: int) -> int:\n    return 2 * x\n' });
    const result = await run.call('write', { path: 'app.py', content: 'from util import double\n\nprint(double(2))\n' });
    expect(text(result)).toContain('No new diagnostics in app.py.');
  });
});
