import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Run, startRun, text } from './helpers.js';

const files = {
  'tsconfig.json': JSON.stringify({ compilerOptions: { target: 'ES2022', module: 'NodeNext', moduleResolution: 'NodeNext', strict: true, noEmit: true }, include: ['src'] }),
  'package.json': '{"type":"module"}',
  'src/shapes.ts': [
    '/** Anything with an area. */',
    'export interface Shape {',
    '  area(): number;',
    '}',
    '',
    '/** A square. */',
    'export class Square implements Shape {',
    '  constructor(readonly side: number) {}',
    '  area(): number {',
    '    return this.side * this.side;',
    '  }',
    '}',
    '',
    '/** Sums the areas of shapes. */',
    'export function totalArea(shapes: readonly Shape[]): number {',
    '  return shapes.reduce((sum, shape) => sum + shape.area(), 0);',
    '}',
    '',
  ].join('\n'),
  'src/main.ts': [
    "import { Square, totalArea, type Shape } from './shapes.js';",
    '',
    'const shapes: Shape[] = [new Square(2), new Square(3)];',
    'export const total = totalArea(shapes);',
    'export const first = shapes[0];',
    '',
  ].join('\n'),
};

describe('lsp against typescript-language-server', () => {
  let run: Run;
  beforeAll(() => {
    run = startRun(files);
  });
  afterAll(async () => {
    await run[Symbol.asyncDispose]();
  });

  it('hover shows the signature and the doc comment', async () => {
    const result = await run.lsp({ action: 'hover', file: 'src/main.ts', line: 4, symbol: 'totalArea' });
    expect(result.isError).toBe(false);
    expect(text(result)).toContain('totalArea(shapes: readonly Shape[]): number');
    expect(text(result)).toContain('Sums the areas of shapes.');
    expect(result.structured).toMatchObject({ action: 'hover', symbol: 'totalArea' });
  });

  it('definition lands on the declaration in the other file, not on the import', async () => {
    const result = await run.lsp({ action: 'definition', file: 'src/main.ts', line: 4, symbol: 'totalArea' });
    expect(text(result)).toContain('src/shapes.ts\n  15:17  export function totalArea(shapes: readonly Shape[]): number {');
    expect(result.structured).toMatchObject({ total: 1, locations: [{ file: 'src/shapes.ts', line: 15, column: 17 }] });
  });

  it('type_definition goes to the type of a value', async () => {
    const result = await run.lsp({ action: 'type_definition', file: 'src/main.ts', line: 5, symbol: 'first' });
    expect(text(result)).toContain('src/shapes.ts\n  2:18  export interface Shape {');
  });

  it('implementation finds the class implementing an interface', async () => {
    const result = await run.lsp({ action: 'implementation', file: 'src/shapes.ts', line: 2, symbol: 'Shape' });
    expect(text(result)).toContain('7:14  export class Square implements Shape {');
  });

  it('references span files, grouped by file with the queried file first', async () => {
    const result = await run.lsp({ action: 'references', file: 'src/main.ts', line: 3, symbol: 'Square', occurrence: 1 });
    const body = text(result);
    expect(body).toMatch(/^4 references to `Square` \(src\/main.ts:3\) in 2 files:/);
    expect(body.indexOf('src/main.ts')).toBeLessThan(body.indexOf('src/shapes.ts'));
    expect(body).toContain('  3:30  const shapes: Shape[] = [new Square(2), new Square(3)];');
    expect(body).toContain('  3:45  const shapes: Shape[] = [new Square(2), new Square(3)];');
    expect(body).toContain('  7:14  export class Square implements Shape {');
  });

  it('incoming_calls and outgoing_calls through the call hierarchy', async () => {
    const incoming = await run.lsp({ action: 'incoming_calls', file: 'src/shapes.ts', line: 15, symbol: 'totalArea' });
    expect(text(incoming)).toBe('1 call to `totalArea` (src/shapes.ts:15):\nsrc/main.ts\n  4:22  export const total = totalArea(shapes);  (in module main.ts)');
    expect(incoming.structured).toMatchObject({ action: 'incoming_calls', total: 1, locations: [{ file: 'src/main.ts', line: 4, column: 22, note: 'in module main.ts' }] });
    const outgoing = await run.lsp({ action: 'outgoing_calls', file: 'src/shapes.ts', line: 15, symbol: 'totalArea' });
    expect(text(outgoing)).toContain('`totalArea` (src/shapes.ts:15) calls 2 functions');
    expect(text(outgoing)).toContain('  3:3  area(): number;  (method area, called once)');
    expect(text(outgoing)).toMatch(/\ntypescript lib\/lib.es5.d.ts \(outside the working directory\)\n {2}\d+:\d+ {2}reduce\(callbackfn: [^\n]+\(method reduce, called once\)/);
    const none = await run.lsp({ action: 'incoming_calls', file: 'src/main.ts', line: 3, symbol: 'Shape' });
    expect(none.isError).toBe(false);
  });

  it('symbols gives a file outline and a workspace search', async () => {
    const outline = await run.lsp({ action: 'symbols', file: 'src/shapes.ts' });
    expect(text(outline)).toContain('  15: function totalArea');
    expect(text(outline)).toContain('  7: class Square');
    const search = await run.lsp({ action: 'symbols', query: 'totalArea' });
    expect(text(search)).toContain('src/shapes.ts\n  15: function totalArea');
  });

  it('diagnostics of a file report its errors with the line text', async () => {
    run.dir.write({ 'src/broken.ts': "export const n: number = 'text';\n" });
    const result = await run.lsp({ action: 'diagnostics', file: 'src/broken.ts' });
    expect(text(result)).toContain("1:14 error TS2322: Type 'string' is not assignable to type 'number'.");
    expect(text(result)).toContain("      > export const n: number = 'text';");
  });

  it('code_actions offers the quick fix for a missing import', async () => {
    run.dir.write({ 'src/uses.ts': 'export const s = new Square(1);\n' });
    const result = await run.lsp({ action: 'code_actions', file: 'src/uses.ts', line: 1, symbol: 'Square' });
    const body = text(result);
    expect(body).toContain("Problems on line 1: error TS2304: Cannot find name 'Square'.");
    expect(body).toMatch(/Add import from "\.\/shapes(\.js)?"/);
    expect(body).toContain('[quickfix');
  });

  it('status shows the running server with its root and pid', async () => {
    const result = await run.lsp({ action: 'status' });
    expect(text(result)).toMatch(/typescript-language-server \(TypeScript\/JavaScript;[^\n]*\n {2}running for \.: pid \d+/);
  });

  it('diagnostics "*" runs tsc over the whole project', async () => {
    const result = await run.lsp({ action: 'diagnostics', file: '*' });
    const body = text(result);
    expect(body).toContain('verified: TypeScript/JavaScript at . by tsc --noEmit -p tsconfig.json');
    expect(body).toContain('src/broken.ts (1)');
    expect(body).toContain("1:14 error TS2322: Type 'string' is not assignable to type 'number'.");
    expect(body).toContain("src/uses.ts (1)");
    expect(result.structured).toMatchObject({ verified: true });
  });

  it('lsp_rename renames across files and reports the edit counts', async () => {
    const result = await run.call('lsp_rename', { file: 'src/shapes.ts', line: 15, symbol: 'totalArea', new_name: 'sumOfAreas' });
    expect(result.isError).toBe(false);
    expect(text(result)).toContain('Renamed `totalArea` (src/shapes.ts:15) to `sumOfAreas`: 3 edits in 2 files.');
    expect(readFileSync(run.dir.join('src/main.ts'), 'utf8')).toContain("import { Square, sumOfAreas, type Shape } from './shapes.js';");
    expect(readFileSync(run.dir.join('src/main.ts'), 'utf8')).toContain('export const total = sumOfAreas(shapes);');
    const refs = await run.lsp({ action: 'references', file: 'src/shapes.ts', line: 15, symbol: 'sumOfAreas' });
    expect(refs.structured).toMatchObject({ total: 3 });
  });

  it('lsp_rename refuses what cannot be renamed and reports errors a rename introduces', async () => {
    const keyword = await run.call('lsp_rename', { file: 'src/main.ts', line: 3, symbol: 'const', new_name: 'let' });
    expect(keyword.isError, text(keyword)).toBe(true);
    expect(text(keyword)).toBe(
      'At `const` (src/main.ts:3) the server would rename `shapes` (line 3) instead; nothing was changed. Address the symbol you mean to rename by its own name.',
    );
    expect(readFileSync(run.dir.join('src/main.ts'), 'utf8')).toContain('const shapes: Shape[]');
    const spaces = await run.call('lsp_rename', { file: 'src/main.ts', line: 4, symbol: 'total', new_name: 'grand total' });
    expect(text(spaces)).toBe('"grand total" cannot be the new name of `total` (src/main.ts:4): it contains whitespace. Nothing was changed.');

    const clash = await run.call('lsp_rename', { file: 'src/main.ts', line: 5, symbol: 'first', new_name: 'total' });
    expect(clash.isError).toBe(false);
    expect(text(clash)).toContain('Renamed `first` (src/main.ts:5) to `total`: 1 edit in 1 file.');
    expect(text(clash)).toContain('New diagnostics in src/main.ts (2):');
    expect(text(clash)).toContain("error TS2451: Cannot redeclare block-scoped variable 'total'.");
  });
});
