import vm from 'node:vm';
import { describe, expect, it } from 'vitest';
import { CellSyntaxError, transformCell } from '../src/js-kernel/transform.js';

/** Runs cells one after another in one context, as the kernel does, returning each cell's value. */
async function runCells(...cells: string[]): Promise<unknown[]> {
  const context = vm.createContext({});
  const values: unknown[] = [];
  for (const cell of cells) values.push(await (vm.runInContext(transformCell(cell), context) as Promise<unknown>));
  return values;
}

describe('transformCell', () => {
  it('returns the last expression', async () => {
    expect(await runCells('1 + 1')).toEqual([2]);
    expect(await runCells('const a = 2\na * 21;')).toEqual([42]);
    expect(await runCells('let a = 1')).toEqual([undefined]);
  });

  it('returns a cell that is only a string literal, as a notebook and the Node REPL do', async () => {
    // Parsed as a directive ("use strict"-like), it answered "(no output)".
    expect(await runCells("'a\u2028b'", '"use strict"', "'x'; 'y'")).toEqual(['a\u2028b', 'use strict', 'y']);
  });

  it('keeps const, let, var, destructuring, functions and classes for the next cell', async () => {
    const values = await runCells(
      'const a = 1\nlet { b, c: [d] } = { b: 2, c: [3] }\nvar e = 4\nfunction f() { return a + b + d + e }\nclass K { v() { return 5 } }',
      'f() + new K().v()',
    );
    expect(values[1]).toBe(15);
  });

  it('lets a later cell redefine a const', async () => {
    expect(await runCells('const x = 1', 'const x = 2\nx')).toEqual([undefined, 2]);
  });

  it('hoists functions within a cell', async () => {
    expect(await runCells('const r = g()\nfunction g() { return "hoisted" }', 'r')).toEqual([undefined, 'hoisted']);
  });

  it('supports top-level await', async () => {
    expect(await runCells('const v = await Promise.resolve(7)\nv * 2')).toEqual([14]);
  });

  it('keeps `var x;` from resetting an existing value', async () => {
    expect(await runCells('var keep = 3', 'var keep;\nkeep')).toEqual([undefined, 3]);
  });

  it('does not join a declaration onto the line before it', async () => {
    expect(await runCells('const fn = () => 1\nconst w = (2)\nw')).toEqual([2]);
  });

  it('preserves line numbers', () => {
    const source = 'const a = {\n  b: 1,\n}\nimport {\n  join,\n} from "node:path"\nthrow new Error("x")';
    const out = transformCell(source);
    expect(out.split('\n')).toHaveLength(source.split('\n').length + 1);
    expect(out.split('\n')[6]).toContain('throw new Error("x")');
  });

  it('rewrites imports into dynamic imports', () => {
    const out = transformCell('import fs, { readFileSync as rf } from "node:fs"\nimport * as path from "node:path"\nimport "node:os"');
    expect(out).toContain('({ default: fs, readFileSync: rf } = await import("node:fs"))');
    expect(out).toContain('path = await import("node:path")');
    expect(out).toContain('await import("node:os")');
  });

  it('reports syntax errors with their position', () => {
    expect(() => transformCell('let x = = 1')).toThrowError(CellSyntaxError);
    try {
      transformCell('ok()\nlet x = = 1');
    } catch (error) {
      expect(error).toMatchObject({ line: 2, column: 8 });
    }
  });

  it('refuses export with a hint', () => {
    expect(() => transformCell('export const a = 1')).toThrowError(/export.*const, let or function/);
  });
});
