import { execFileSync } from 'node:child_process';
import { resultText } from '@agent-tools/core';
import { afterAll, describe, expect, it } from 'vitest';
import { type AstGrepResult, createTreeSitterLoader } from '../src/index.js';
import { AST_GREP } from './corpus.js';
import { npmFile, realWorkspace } from './real-code.js';

const loader = createTreeSitterLoader({ workers: 0 });
afterAll(() => loader.dispose());

/** ast-grep's match lines for a pattern on one file of a workspace. */
function cliLines(dir: string, pattern: string, lang: string, file: string): number[] {
  let out: string;
  try {
    out = execFileSync(AST_GREP, ['run', '--pattern', pattern, '--lang', lang, '--json=compact', file], { cwd: dir, encoding: 'utf8' });
  } catch (error) {
    // ast-grep exits with 1 when nothing matches; its output is still the JSON list.
    out = String((error as { stdout?: string }).stdout ?? '');
  }
  return (JSON.parse(out) as { range: { start: { line: number } } }[]).map((m) => m.range.start.line + 1);
}

/**
 * The patterns the generated readings check (test/readings-generated.test.ts) found unmatched at their own node
 * (issue 21, item 4): each is now matched by another reading, or the answer's first line says how the pattern was
 * read and what to write instead. Real files, the very nodes the generator made them from.
 */
describe('patterns the grammar reads another way: matched, or said first (issue 21, item 4)', () => {
  it('go (strings/builder.go): func $A Write(...) $B finds the method, with a receiver and a block read together', async () => {
    await using t = realWorkspace(loader, ['/usr/lib/go/src/strings/builder.go']);
    const result = await t.call('ast_grep', { pattern: 'func $A Write(p []byte) (int, error) $B', path: 'builder.go' });
    const structured = result.structured as AstGrepResult;
    expect(structured.matches.map((m) => [m.startLine, m.captures['A']?.text])).toEqual([[88, '(b *Builder)']]);
    expect(resultText(result)).toContain('`$A` and `$B` read as a source_file and as a receiver and as a block in a method_declaration');
  });

  it('c (runtime/cgo/gcc_freebsd_arm.c): a block of bare metavariable statements is read as statements', async () => {
    await using t = realWorkspace(loader, ['/usr/lib/go/src/runtime/cgo/gcc_freebsd_arm.c']);
    const pattern = '{\n\t$A\n\t$B\n\n\t$C\n\t$D;\n\t$$$ES\n\t$F;\n}';
    const structured = (await t.call('ast_grep', { pattern, path: 'gcc_freebsd_arm.c' })).structured as AstGrepResult;
    const body = structured.matches.find((m) => m.startLine === 29);
    expect(body?.captures['A']?.text).toBe('pthread_attr_t attr;');
    expect(body?.captures['F']?.text).toBe('pthread_attr_destroy(&attr)');
  });

  it('nix (nijs release.nix): $_ is a wildcard, where ast-grep reads it as the name __', async () => {
    await using t = realWorkspace(loader, [npmFile('nijs', 'release.nix')]);
    const structured = (await t.call('ast_grep', { pattern: '$_ { inherit pkgsJsFile; attrName = $A; }', path: 'release.nix' })).structured as AstGrepResult;
    expect(structured.matches.map((m) => m.captures['A']?.text)).toEqual(expect.arrayContaining(['"hello"', '"zlib"', '"file"']));
    expect(cliLines(t.dir.path, '$_ { inherit pkgsJsFile; attrName = $A; }', 'nix', 'release.nix')).toEqual([]);
    const attrset = (await t.call('ast_grep', { pattern: '{\n$A\n}', path: 'release.nix' })).structured as AstGrepResult;
    expect(attrset.matches.length).toBeGreaterThan(0);
  });

  it('css (jquery-ui.css): `$_: absolute;` is any such declaration (ast-grep reads `$_` as `__`); `.ui-datepicker $A` a descendant selector', async () => {
    await using t = realWorkspace(loader, ['/usr/share/javascript/jquery-ui/themes/base/jquery-ui.css']);
    const declarations = (await t.call('ast_grep', { pattern: '$_: absolute;', path: 'jquery-ui.css', max_results: 500 })).structured as AstGrepResult;
    expect(declarations.matches.some((m) => m.startLine === 697)).toBe(true);
    expect(cliLines(t.dir.path, '$_: absolute;', 'css', 'jquery-ui.css')).toEqual([]);
    // A color is its own text: `#333333` alone is not read as the `#` token (which every color has).
    const colors = (await t.call('ast_grep', { pattern: 'color: #333333;', path: 'jquery-ui.css', max_results: 500 })).structured as AstGrepResult;
    expect(colors.matches.length).toBeGreaterThan(0);
    expect(colors.matches.every((m) => m.text === 'color: #333333;')).toBe(true);
    expect(cliLines(t.dir.path, 'color: #333333;', 'css', 'jquery-ui.css').length).toBeGreaterThan(colors.matches.length);
    expect(resultText(await t.call('ast_grep', { pattern: '#333333', path: 'jquery-ui.css' })).split('\n')[0]).toMatch(/^The pattern is unparseable as css/);
    const descendant = (await t.call('ast_grep', { pattern: '.ui-datepicker $A', path: 'jquery-ui.css', max_results: 200 })).structured as AstGrepResult;
    expect(descendant.matches.some((m) => m.startLine === 429 && m.captures['A']?.text === '.ui-datepicker-prev')).toBe(true);
  });

  it('hcl (hclsimple test.hcl): an attribute as a metavariable in a body', async () => {
    await using t = realWorkspace(loader, ['/usr/share/gocode/src/github.com/hashicorp/hcl/v2/hclsimple/testdata/test.hcl']);
    const structured = (await t.call('ast_grep', { pattern: '$A = "bar"\n$_', path: 'test.hcl' })).structured as AstGrepResult;
    expect(structured.matches.map((m) => [m.startLine, m.captures['A']?.text])).toEqual([[1, 'foo']]);
  });

  it('haskell (parsec Token.hs, Parsec.hs): juxtaposition is said first; `import $A` reads as an import', async () => {
    await using t = realWorkspace(loader, [
      '/usr/lib/hugs/packages/parsec/Text/ParserCombinators/Parsec/Token.hs',
      '/usr/lib/hugs/packages/parsec/Text/ParserCombinators/Parsec.hs',
    ]);
    const text = resultText(await t.call('ast_grep', { pattern: '$A $B show name', path: 'Token.hs' }));
    expect(text.split('\n')[0]).toMatch(/^Read as an application .* `\$A \+\+ \$B` for an operator/);
    const imports = (await t.call('ast_grep', { pattern: 'import $A', path: 'Parsec.hs' })).structured as AstGrepResult;
    expect(imports.matches.map((m) => m.captures['A']?.text)).toContain('Text.ParserCombinators.Parsec.Prim');
  });

  it('documents (markdown, html): a metavariable the grammar does not read is said first, with what to write; csharp `try $_ $A` is unparseable', async () => {
    await using t = realWorkspace(loader, [
      npmFile('@capacitor/google-maps', 'README.md'),
      '/usr/share/doc/swig4.0-examples/Examples/go/simple/index.html',
      npmFile('edge-js', 'src', 'double', 'Edge.js', 'dotnetcore', 'coreclrembedding.cs'),
    ]);
    const markdown = resultText(await t.call('ast_grep', { pattern: '$A $$$', path: 'README.md' }));
    expect(markdown.split('\n')[0]).toMatch(/^Read differently: `\$A`, `\$\$\$` are not read as metavariables here — the markdown grammar/);
    const html = resultText(await t.call('ast_grep', { pattern: '<$A>\n<pre>\n$$$\n</pre>\n</blockquote>', path: 'index.html' }));
    expect(html.split('\n')[0]).toMatch(/^Read by error recovery: the html grammar rejects `<\/blockquote>` .*`<\$A>…<\/\$A>`/);
    const csharp = resultText(await t.call('ast_grep', { pattern: 'try\n$_\n\n$A', path: 'coreclrembedding.cs' }));
    // Read alone, `try` and two names parse only as an error around the keyword: unparseable, with where it fails.
    expect(csharp.split('\n')[0]).toMatch(/^The pattern is unparseable as csharp: .* It fails at line 4/);
    const edit = resultText(await t.call('ast_edit', { pattern: '$A $$$', rewrite: 'x', path: 'README.md' }));
    expect(edit.split('\n')[0]).toMatch(/^Read differently/);
  });
});
