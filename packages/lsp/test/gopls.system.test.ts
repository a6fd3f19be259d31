import { cpSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Run, startRun, text } from './helpers.js';

const files = {
  'go.mod': 'module example.com/shop\n\ngo 1.19\n',
  'main.go': ['package main', '', 'import "fmt"', '', 'func main() {', '\tfmt.Println(Total([]int{1, 2}))', '}', ''].join('\n'),
  'report.go': 'package main\n\n// PrintReport prints the report.\nfunc PrintReport() {}\n',
  'total.go': ['package main', '', '// Total sums the prices.', 'func Total(prices []int) int {', '\tsum := 0', '\tfor _, p := range prices {', '\t\tsum += p', '\t}', '\treturn sum', '}', ''].join('\n'),
};

describe('lsp against gopls', () => {
  let run: Run;
  beforeAll(() => {
    run = startRun(files);
  });
  afterAll(async () => {
    await run[Symbol.asyncDispose]();
  });

  it('hover, definition and references', async () => {
    const hover = await run.lsp({ action: 'hover', file: 'main.go', line: 6, symbol: 'Total' });
    expect(text(hover)).toContain('func Total(prices []int) int');
    expect(text(hover)).toContain('Total sums the prices.');
    const definition = await run.lsp({ action: 'definition', file: 'main.go', line: 6, symbol: 'Total' });
    expect(text(definition)).toContain('total.go\n  4:6  func Total(prices []int) int {');
    const references = await run.lsp({ action: 'references', file: 'total.go', line: 4, symbol: 'Total' });
    expect(text(references)).toMatch(/^2 references to `Total` \(total.go:4\) in 2 files:/);
  });

  it('workspace symbols: the module\'s own only, unless outside ones are asked for; then marked, the server\'s own cut stated', async () => {
    const own = await run.lsp({ action: 'symbols', query: 'Print' });
    expect((own.structured as { symbols: Array<{ file: string; name: string; outside?: true }> }).symbols).toEqual([
      { file: 'report.go', name: 'PrintReport', kind: 'function', line: 4, container: 'example.com/shop' },
    ]);
    expect(text(own)).toMatch(/\(\d+ matches outside the working directory not listed \(add "outside": true to see them\)\)$/);
    const result = await run.lsp({ action: 'symbols', query: 'Print', outside: true });
    const body = text(result);
    const symbols = (result.structured as { symbols: Array<{ file: string; name: string; outside?: true }> }).symbols;
    expect(symbols[0]).toMatchObject({ file: 'report.go', name: 'PrintReport' });
    expect(symbols.some((s) => s.outside)).toBe(true);
    expect(body).toMatch(/^CUT BY THE SERVER: gopls returned its maximum of 100, so other matches may exist; refine the query\.\n\d+ symbols matching "Print" \(1 in the working directory, \d+ outside it\):\nreport.go\n {2}4: function PrintReport \(in example\.com\/shop\)\ngo \S+ \(outside the working directory\)/);
  });

  it('incoming_calls and outgoing_calls', async () => {
    const incoming = await run.lsp({ action: 'incoming_calls', file: 'total.go', line: 4, symbol: 'Total' });
    expect(text(incoming)).toBe('1 call to `Total` (total.go:4):\nmain.go\n  6:14  fmt.Println(Total([]int{1, 2}))  (in function main)');
    const outgoing = await run.lsp({ action: 'outgoing_calls', file: 'main.go', line: 5, symbol: 'main' });
    expect(text(outgoing)).toMatch(/^`main` \(main.go:5\) calls 2 functions declared in 2 files:\ntotal.go\n {2}4:6 {2}func Total\(prices \[\]int\) int \{ {2}\(function Total, called once\)\ngo fmt\/print.go \(outside the working directory\)\n {2}\d+:\d+ {2}func Println\(a \.\.\.any\) \(n int, err error\) \{ {2}\(function Println, called once\)$/);
  });

  it('diagnostics on write report a type error of the version just written', async () => {
    const result = await run.call('write', { path: 'extra.go', content: 'package main\n\nvar broken int = "text"\n' });
    expect(text(result)).toContain('New diagnostics in extra.go (1):');
    expect(text(result)).toMatch(/3:18 error[^\n]*cannot use "text" \(untyped string constant\) as int value in variable declaration/);
    const fixed = await run.call('write', { path: 'extra.go', content: 'package main\n\nvar broken int = 4\n' });
    expect(text(fixed)).toContain('No new diagnostics in extra.go.');
  });

  it('diagnostics "*" lists every type error of every package (gopls check), vet findings as warnings, verified only when complete', async () => {
    run.dir.write({
      'vet/v.go': 'package vet\n\nimport "fmt"\n\nfunc Report() { fmt.Printf("%d\\n", "text") }\n',
      // Two type errors in one package, and a package importing it with one of its own: go vet stops at the first.
      'broken/b.go': 'package broken\n\nvar A int = "a"\nvar B int = "b"\n\nfunc F() int { return A + B }\n',
      'uses/u.go': 'package uses\n\nimport "example.com/shop/broken"\n\nvar C string = broken.F()\n',
    });
    const result = await run.lsp({ action: 'diagnostics', file: '*' });
    const body = text(result);
    expect(body).toMatch(/NOT VERIFIED: Go at \. by gopls check \(every file go list \.\/\.\.\. builds\) and go vet \.\/\.\.\. in \.: go vet could not check the packages with type errors \(broken, uses\): every type error is listed, vet's findings there are not \(3 errors, 1 warning found before that\)/);
    expect(body).toMatch(/broken\/b.go \(2\)\n {2}3:13 error: cannot use "a"/);
    expect(body).toMatch(/ {2}4:13 error: cannot use "b"/);
    expect(body).toMatch(/uses\/u.go \(1\)\n {2}5:16 error: cannot use broken.F\(\)/);
    expect(body).toMatch(/vet\/v.go \(1\)\n {2}5:\d+ warning: fmt.Printf format %d has arg "text" of wrong type string/);
    expect(result.structured).toMatchObject({ verified: false });

    run.dir.write({ 'broken/b.go': 'package broken\n\nvar A int = 1\nvar B int = 2\n\nfunc F() int { return A + B }\n', 'uses/u.go': 'package uses\n\nimport "example.com/shop/broken"\n\nvar C int = broken.F()\n' });
    const clean = await run.lsp({ action: 'diagnostics', file: '*' });
    expect(text(clean)).toMatch(/verified: Go at \. by gopls check \(every file go list \.\/\.\.\. builds\) and go vet \.\/\.\.\. in \.: 0 errors, 1 warning/);
    expect(clean.structured).toMatchObject({ verified: true });
  });

  it('diagnostics "*" on real code with files no build includes here (encoding/json\'s gofuzz-tagged fuzz.go, a _windows.go): every type error', async () => {
    await using json = startRun({ 'go.mod': 'module example.com/json\n\ngo 1.19\n' });
    const source = '/usr/lib/go/src/encoding/json';
    for (const file of readdirSync(source).filter((f) => f.endsWith('.go') && !f.endsWith('_test.go'))) cpSync(join(source, file), json.dir.join(file));
    json.dir.write({
      'indent.go': `${readFileSync(json.dir.join('indent.go'), 'utf8')}\nfunc broken() int { return "x" }\n`,
      // Built on Windows only: its error is not this platform's, and it must not stop the check of the others.
      'path_windows.go': 'package json\n\nvar windowsOnly int = "w"\n',
      'sub/sub.go': 'package sub\n\nfunc Bad() string { return 1 }\n',
    });
    const result = await json.lsp({ action: 'diagnostics', file: '*' });
    const body = text(result);
    expect(body).toMatch(/NOT VERIFIED: Go at \. by gopls check \(every file go list \.\/\.\.\. builds\) and go vet \.\/\.\.\. in \.: go vet could not check the packages with type errors \(\., sub\)/);
    expect(body).toMatch(/indent\.go \(1\)\n {2}\d+:28 error: cannot use "x" \(untyped string constant\) as int value in return statement/);
    expect(body).toMatch(/sub\/sub\.go \(1\)\n {2}3:28 error: cannot use 1 \(untyped int constant\) as string value/);
    expect(body).not.toContain('path_windows.go');
    expect(body).not.toContain('no package metadata');
  });

  it('diagnostics "*" with analyzer findings only (vet\'s composites, gofmt -s\'s simplifyrange): warnings, and the check is verified', async () => {
    // gopls check prints an analyzer's finding like a type error unless it links the analyzer's documentation; these
    // two do not, and were once listed as errors that kept vet from the package.
    await using style = startRun({
      'go.mod': 'module example.com/sty\n\ngo 1.19\n',
      'pair/p.go': 'package pair\n\ntype Pair struct{ A, B int }\n',
      // A name gopls spells its own way in a URI (it percent-encodes the parentheses): its columns come from its text.
      'style/s (copy).go': 'package style\n\nimport "example.com/sty/pair"\n\nfunc Sum(xs []int) int {\n\ttotal := 0\n\tfor i, _ := range xs {\n\t\ttotal += xs[i]\n\t}\n\treturn total\n}\n\nvar P = pair.Pair{1, 2}\n',
    });
    const result = await style.lsp({ action: 'diagnostics', file: '*' });
    const body = text(result);
    expect(body).toMatch(/verified: Go at \. by gopls check \(every file go list \.\/\.\.\. builds\) and go vet \.\/\.\.\. in \.: 0 errors, 2 warnings/);
    expect(body).toContain('style/s (copy).go (2)\n  7:9 warning: simplify range expression [simplifyrange]');
    expect(body).toContain('  13:9 warning: example.com/sty/pair.Pair struct literal uses unkeyed fields [composites]');
    expect(result.structured).toMatchObject({ verified: true });
  });

  it('diagnostics "*" with a go.mod that does not parse: NOT VERIFIED, the reason naming go.mod workspace-relative', async () => {
    await using broken = startRun({ 'go.mod': 'module example.com/x\n\ngo 1.19\nrequire (\n', 'a.go': 'package x\n\nvar A int = 1\n' });
    const result = await broken.lsp({ action: 'diagnostics', file: '*' });
    expect(text(result)).toMatch(/NOT VERIFIED: Go at \. by [^\n]*: go vet exited with code 1: go: errors parsing go\.mod:\ngo\.mod:5: syntax error/);
    expect(text(result)).not.toContain(broken.dir.path);
  });
});
