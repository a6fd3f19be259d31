import { spawnSync } from 'node:child_process';
import { approveAll, createRegistry, resultText } from '@agent-tools/core';
import { tempDir } from '@agent-tools/test-utils';
import { afterAll, describe, expect, it } from 'vitest';
import { type AstTreeResult, astTools } from '../src/index.js';
import { AST_GREP } from './corpus.js';
import { inlineLoader } from './helpers.js';

const loader = inlineLoader();
afterAll(() => loader.dispose());

const GO = `package main

import "errors"

func check(x int) error {
\tif x < 0 {
\t\treturn errors.New("negative")
\t}
\treturn nil
}
`;

const dir = tempDir({ 'src/main.go': GO, 'big.ts': Array.from({ length: 400 }, (_, i) => `const v${i} = ${i};`).join('\n') });
afterAll(() => dir.remove());
const registry = createRegistry({ resources: { cwd: dir.path, treeSitter: loader }, factories: [astTools], approve: approveAll });
const tree = (args: Record<string, unknown>) => registry.call('ast_tree', args);

/** The named kinds ast-grep's own build prints for a snippet (`--debug-query=ast`), in order. */
function astGrepKinds(code: string, language: string): string[] {
  // It prints the tree whatever it finds, and exits with 1 when nothing matched.
  const run = spawnSync(AST_GREP, ['run', `--pattern=${code}`, '--lang', language, '--debug-query=ast', '/dev/null'], { encoding: 'utf8' });
  return `${run.stdout}\n${run.stderr}`
    .split('\n')
    .map((l) => /^\s*(?:[a-z_]+: )?([A-Za-z_]+) \(/.exec(l)?.[1])
    .filter((k): k is string => k !== undefined);
}

describe('ast_tree', () => {
  it("shows a snippet's named nodes with fields, as ast-grep's own build parses it", async () => {
    const code = 'foo(a, b.c)';
    const result = await tree({ code, language: 'typescript' });
    const text = resultText(result);
    expect(text).toContain('function: identifier "foo" 1:1-1:4');
    expect(text).toContain('arguments: arguments 1:4-1:12');
    expect(text).toContain('property: property_identifier "c"');
    const kinds = ((result.structured as AstTreeResult).tree ?? []).map((l) => /^\s*(?:[a-z_]+: )?([A-Za-z_]+)/.exec(l)?.[1]);
    expect(kinds).toEqual(astGrepKinds(code, 'typescript'));
  });

  it("shows a file's line range, workspace-relative, the nodes reaching outside it marked", async () => {
    const text = resultText(await tree({ path: 'src/main.go', start_line: 7, end_line: 7 }));
    expect(text.split('\n')[0]).toBe('Syntax tree of src/main.go lines 7-7 (go; named nodes only, tokens hidden):');
    expect(text).toMatch(/function_declaration 5:1-10:2 \(partly\)/);
    expect(text).toContain('function: selector_expression 7:10-7:20');
    expect(text).not.toContain('import_declaration');
    const outside = await tree({ path: '../outside.go' });
    expect(outside.isError).toBe(true);
    expect(resultText(outside)).toMatch(/outside the working directory/);
  });

  it('shows how a pattern was read: the rung of the ladder, the root kind, and ast-grep\'s own reading', async () => {
    const result = await tree({ pattern: 'errors.New($MSG)', language: 'go' });
    const text = resultText(result);
    expect(text).toMatch(/read as statement; its root is call_expression/);
    expect(text).toContain('$MSG: one named node');
    expect((result.structured as AstTreeResult).pattern?.astGrep).toBeDefined();
    const same = await tree({ pattern: 'foo($A)', language: 'typescript' });
    expect(resultText(same)).toMatch(/read as fragment on its own; its root is call_expression/);
    expect((same.structured as AstTreeResult).pattern?.astGrep).toBeUndefined();
  });

  it('is capped, and says so in its first line', async () => {
    const text = resultText(await tree({ path: 'big.ts', max_lines: 20 }));
    expect(text.split('\n')[0]).toMatch(/^Partial: 20 of \d+ nodes of big\.ts shown/);
    expect(text.split('\n').length).toBeLessThan(25);
  });

  it('marks syntax errors and needs something to show', async () => {
    const text = resultText(await tree({ code: 'foo(a,', language: 'typescript', tokens: true }));
    expect(text).toMatch(/has syntax errors/);
    expect(text).toMatch(/MISSING|ERROR/);
    const nothing = await tree({ language: 'go' });
    expect(nothing.isError).toBe(true);
    expect(resultText(nothing)).toMatch(/Pass `code`/);
  });
});
