import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { createTreeSitterLoader } from '../src/index.js';
import { gofmtErrors, npmFile, pythonAst, realWorkspace } from './real-code.js';

const loader = createTreeSitterLoader({ workers: 0 });
afterAll(() => loader.dispose());

/** The source lines that contain `needle`, trimmed. */
const linesWith = (text: string, needle: string): string[] => text.split('\n').filter((l) => l.includes(needle)).map((l) => l.trim());

describe('a substituted template keeps its operator binding (issue 21, item 2)', () => {
  it('javascript (zod): `!Array.isArray(x)` -> `!(x instanceof Array)`, never `!x instanceof Array`', async () => {
    await using t = realWorkspace(loader, [npmFile('zod', 'v4', 'classic', 'from-json-schema.js')]);
    const result = await t.edit({ pattern: 'Array.isArray($X)', rewrite: '$X instanceof Array', path: 'from-json-schema.js' });
    expect(result.text.split('\n').slice(0, 4).join('\n')).toMatch(/Parenthesized: \d+ replacements? got parentheses/);
    expect(result.structured.unsafe).toEqual([]);
    await t.accept();
    const after = t.read('from-json-schema.js');
    expect(linesWith(after, 'instanceof Array')).toContain('if (!(items instanceof Array))');
    expect(after).not.toMatch(/!\w+ instanceof Array/);
    execFileSync(process.execPath, ['--check', t.dir.join('from-json-schema.js')]);
  });

  it('typescript (zod sources): the same rewrite in .ts', async () => {
    await using t = realWorkspace(loader, [npmFile('zod', 'src', 'v4', 'classic', 'from-json-schema.ts')]);
    await t.edit({ pattern: 'Array.isArray($X)', rewrite: '$X instanceof Array', path: 'from-json-schema.ts' });
    await t.accept();
    const after = t.read('from-json-schema.ts');
    expect(after).toContain('!(items instanceof Array)');
    expect(after).not.toMatch(/!\w+ instanceof Array/);
  });

  it('go (net/url): `!strings.Contains(u, ":")` -> `!(strings.Index(u, ":") >= 0)`', async () => {
    await using t = realWorkspace(loader, ['/usr/lib/go/src/net/url/url.go']);
    await t.edit({ pattern: 'strings.Contains($S, $T)', rewrite: 'strings.Index($S, $T) >= 0', path: 'url.go' });
    await t.accept();
    const after = t.read('url.go');
    expect(after).toContain('\tif !(strings.Index(userinfo, ":") >= 0) {\n');
    expect(after).toContain('strings.Cut(rest, "/"); strings.Index(segment, ":") >= 0 {');
    expect(gofmtErrors(t.dir.join('url.go'))).toBe('');
  });

  it('go (strings tests): a capture that lands as the right operand of || gets parentheses', async () => {
    await using t = realWorkspace(loader, ['/usr/lib/go/src/strings/reader_test.go']);
    await t.edit({ pattern: '$A || $B', rewrite: '$B || $A', path: 'reader_test.go' });
    await t.accept();
    expect(t.read('reader_test.go')).toContain('ReadRune(); err != io.EOF || (ch != 0 || size != 0) {');
    expect(gofmtErrors(t.dir.join('reader_test.go'))).toBe('');
  });

  it('python (turtle.py): `a + max(a, 4)` -> `a + (a if a > 4 else 4)`, as CPython reads it', async () => {
    await using t = realWorkspace(loader, ['/usr/lib/python3.11/turtle.py']);
    await t.edit({ pattern: 'max($A, $B)', rewrite: '$A if $A > $B else $B', path: 'turtle.py' });
    await t.accept();
    const after = t.read('turtle.py');
    expect(after).toContain('size = self._pensize + (self._pensize if self._pensize > 4 else 4)');
    writeFileSync(t.dir.join('probe.py'), 'self._pensize + (self._pensize if self._pensize > 4 else 4)\n');
    expect(pythonAst(t.dir.join('probe.py'))).toContain('BinOp(left=Attribute');
    pythonAst(t.dir.join('turtle.py'));
  });

  it('c (libpng example.c): `return(!png_sig_cmp(...))` keeps its negation over the whole comparison', async () => {
    await using t = realWorkspace(loader, ['/usr/share/doc/libpng-dev/examples/example.c']);
    await t.edit({ pattern: 'png_sig_cmp($A, $B, $C)', rewrite: 'png_sig_cmp($A, $B, $C) != 0', path: 'example.c' });
    await t.accept();
    expect(t.read('example.c')).toContain('return(!(png_sig_cmp(buf, 0, PNG_BYTES_TO_CHECK) != 0));');
  });

  it('rust (regex backtrack.rs): `!x.is_empty()` -> `!(x.len() == 0)`', async () => {
    await using t = realWorkspace(loader, ['/usr/share/cargo/registry/regex-1.7.1/src/backtrack.rs']);
    await t.edit({ pattern: '$A.is_empty()', rewrite: '$A.len() == 0', path: 'backtrack.rs' });
    await t.accept();
    expect(t.read('backtrack.rs')).toContain('if !(self.prog.prefixes.len() == 0) {');
  });

  it('a replacement parentheses cannot make safe is listed before resolve', async () => {
    await using t = realWorkspace(loader, []);
    writeFileSync(t.dir.join('a.js'), 'const ok = !check(x);\n');
    const result = await t.edit({ pattern: 'check($X)', rewrite: 'if ($X) {}', path: 'a.js' });
    expect(result.structured.unsafe).toEqual([expect.objectContaining({ file: 'a.js', line: 1 })]);
    expect(result.text.split('\n')[1]).toMatch(/^Unsafe: 1 replacement may bind differently/);
    // Each listed line says in words what was tried (it read `((whole))` before).
    expect(result.text.split('\n')[2]).toBe('  a.js:1: if (x) {} (parentheses tried around the replacement)');
  });
});

describe('unsafe replacements are named by their original line (issue 21, reviewability)', () => {
  it('python: after an earlier replacement that drops a comment line, the next unsafe one keeps its own line number', async () => {
    await using t = realWorkspace(loader, []);
    writeFileSync(t.dir.join('u.py'), 'y = f(x,\n      # c\n      b)\nz = f(w, b)\n');
    const result = await t.edit({ pattern: 'f($X, b)', rewrite: 'print($X); g()', path: 'u.py' });
    // Before: `u.py:2` for the second, its line in the rewritten text, while "Loses:" named `u.py:2: # c`.
    expect(result.structured.unsafe.map((u) => u.line)).toEqual([1, 4]);
  });
});

describe('a template that is one node stays one node (issue 21, item 2; found by the 250-pattern differential)', () => {
  it("elixir (tree-sitter-elixir's operator cases): `+\\n$A` on `x +y` is listed as unsafe: as `x +\\ny` the call's unary argument became `x + y`", async () => {
    // `x +y` is a call of x with the argument +y; written `x +\ny` it is an addition. The replacement re-parsed as
    // two siblings of a binary operator, which the check for runs of statements accepted before.
    await using t = realWorkspace(loader, []);
    writeFileSync(t.dir.join('operator.ex'), 'x+y\nx + y\nx+ y\n\nx +y\nx +y +z\n');
    const result = await t.edit({ pattern: '+\n$A', rewrite: '+\n$A', language: 'elixir' });
    expect(result.structured.replacements).toBe(2);
    // Parentheses do not make it a call's argument again, so both are listed as unsafe before resolve.
    expect(result.text.split('\n')[1]).toMatch(/^Unsafe: 2 replacements may bind differently than the template says/);
    expect(result.structured.unsafe.length).toBe(2);
  });
});
