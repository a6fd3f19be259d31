import { execFileSync } from 'node:child_process';
import { resultText } from '@agent-tools/core';
import { afterAll, describe, expect, it } from 'vitest';
import { type AstGrepResult, createTreeSitterLoader } from '../src/index.js';
import { AST_GREP } from './corpus.js';
import { realWorkspace } from './real-code.js';

const loader = createTreeSitterLoader({ workers: 0 });
afterAll(() => loader.dispose());

const EXAMPLE = '/usr/share/doc/swig4.0-examples/Examples/octave/variables/example.c';

describe('a pattern the grammar reads two ways matches both readings (issue 21, item 4)', () => {
  it('c (swig example.c): malloc(sizeof($T)) finds sizeof(int) and sizeof(Point); ast-grep finds only the expression reading', async () => {
    await using t = realWorkspace(loader, [EXAMPLE]);
    const result = await t.call('ast_grep', { pattern: 'malloc(sizeof($T))', path: 'example.c' });
    const structured = result.structured as AstGrepResult;
    expect(structured.matches.map((m) => [m.startLine, m.captures['T']?.text])).toEqual([
      [65, 'int'],
      [73, 'Point'],
    ]);
    expect(resultText(result)).toContain('The pattern reads more than one way: `$T` read as an expression and as a type');
    const cli = execFileSync(AST_GREP, ['run', '--pattern', 'malloc(sizeof($T))', '--lang', 'c', '--json=compact', 'example.c'], { cwd: t.dir.path, encoding: 'utf8' });
    expect((JSON.parse(cli) as { range: { start: { line: number } } }[]).map((m) => m.range.start.line + 1)).toEqual([73]);
  });

  it('c: malloc($N * sizeof($T)) finds both, and a repeated $T must still be the same code', async () => {
    await using t = realWorkspace(loader, []);
    const code = 'void f(int n) {\n  int *a = (int *) malloc(n * sizeof(int));\n  Stack *s = (Stack *) malloc(n * sizeof(Stack));\n  char *c = (char *) malloc(n * sizeof(int));\n}\n';
    execFileSync('sh', ['-c', 'cat > a.c'], { cwd: t.dir.path, input: code });
    const both = (await t.call('ast_grep', { pattern: 'malloc($N * sizeof($T))', path: 'a.c' })).structured as AstGrepResult;
    expect(both.matches.map((m) => m.startLine)).toEqual([2, 3, 4]);
    const cast = (await t.call('ast_grep', { pattern: '($T *) malloc($N * sizeof($T))', path: 'a.c' })).structured as AstGrepResult;
    expect(cast.matches.map((m) => m.startLine)).toEqual([2, 3]);
  });

  it('a rewrite of both readings', async () => {
    await using t = realWorkspace(loader, [EXAMPLE]);
    const result = await t.edit({ pattern: 'malloc(sizeof($T))', rewrite: 'calloc(1, sizeof($T))', path: 'example.c' });
    expect(result.structured.replacements).toBe(2);
    await t.accept();
    expect(t.read('example.c')).toContain('int *ip = (int *) calloc(1, sizeof(int));');
    expect(t.read('example.c')).toContain('Point *p = (Point *) calloc(1, sizeof(Point));');
  });
});
