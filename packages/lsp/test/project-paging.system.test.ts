import { readFileSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { rxjs } from './differential/projects.js';
import { startRun, text } from './helpers.js';

// Issue 22, item 1 for `diagnostics "*"`: with more problems than a page holds, every page concatenated is exactly
// the whole-project check of the TypeScript compiler itself (asked through its API), and `path` keeps one folder's.
function compilerCheck(dir: string): string[] {
  const config = ts.readConfigFile(join(dir, 'tsconfig.json'), ts.sys.readFile).config as object;
  const parsed = ts.parseJsonConfigFileContent(config, ts.sys, dir);
  const program = ts.createProgram(parsed.fileNames, parsed.options);
  return ts
    .getPreEmitDiagnostics(program)
    .filter((d) => d.file && (d.category === ts.DiagnosticCategory.Error || d.category === ts.DiagnosticCategory.Warning))
    .map((d) => {
      const file = d.file as ts.SourceFile;
      const at = file.getLineAndCharacterOfPosition(d.start ?? 0);
      return `${relative(dir, file.fileName)}:${at.line + 1}:${at.character + 1}:TS${d.code}`;
    })
    .sort();
}

describe('diagnostics "*" in pages', () => {
  it('rxjs with two widely used functions broken: pages concatenated equal the compiler\'s own check', { timeout: 600_000 }, async () => {
    await using run = startRun({}, { indexWaitMs: 300_000 });
    rxjs.prepare(run.dir.path);
    for (const [file, from, to] of [
      ['internal/util/isFunction.ts', 'isFunction(value: any)', 'isFunction(value: any, strict: boolean)'],
      ['internal/util/lift.ts', 'export function operate<T, R>(', 'export function operate<T, R>(extra: number, '],
    ] as const) {
      const path = join(run.dir.path, file);
      writeFileSync(path, readFileSync(path, 'utf8').replace(from, to));
    }
    const expected = compilerCheck(run.dir.path);
    expect(expected.length).toBeGreaterThan(100);
    const got: string[] = [];
    let offset: number | undefined = 0;
    let pages = 0;
    while (offset !== undefined) {
      const result = await run.lsp({ action: 'diagnostics', file: '*', offset });
      const data = result.structured as { total: number; next?: number; diagnostics: Array<{ file: string; line: number; column: number; code: string }> };
      expect(data.total).toBe(expected.length);
      if (data.next !== undefined) expect(text(result)).toContain(`Next page: lsp {"action":"diagnostics","file":"*","offset":${data.next}}`);
      got.push(...data.diagnostics.map((d) => `${d.file}:${d.line}:${d.column}:${d.code}`));
      offset = data.next;
      pages++;
    }
    expect(pages).toBeGreaterThan(1);
    expect(got.length).toBe(new Set(got).size);
    expect([...got].sort()).toEqual(expected);
    const operators = await run.lsp({ action: 'diagnostics', file: '*', path: 'internal/operators' });
    const inside = expected.filter((k) => k.startsWith('internal/operators/'));
    expect((operators.structured as { total: number }).total).toBe(inside.length);
  });
});
