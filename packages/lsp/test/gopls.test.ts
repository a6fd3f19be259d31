import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Run, startRun, text } from './helpers.js';

const files = {
  'go.mod': 'module example.com/shop\n\ngo 1.19\n',
  'main.go': ['package main', '', 'import "fmt"', '', 'func main() {', '\tfmt.Println(Total([]int{1, 2}))', '}', ''].join('\n'),
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

  it('diagnostics on write report a type error of the version just written', async () => {
    const result = await run.call('write', { path: 'extra.go', content: 'package main\n\nvar broken int = "text"\n' });
    expect(text(result)).toContain('New diagnostics in extra.go (1):');
    expect(text(result)).toMatch(/3:18 error[^\n]*cannot use "text" \(untyped string constant\) as int value in variable declaration/);
    const fixed = await run.call('write', { path: 'extra.go', content: 'package main\n\nvar broken int = 4\n' });
    expect(text(fixed)).toContain('No new diagnostics in extra.go.');
  });

  it('diagnostics "*" runs go vet over the module', async () => {
    run.dir.write({ 'vet.go': 'package main\n\nimport "fmt"\n\nfunc report() { fmt.Printf("%d\\n", "text") }\n' });
    const result = await run.lsp({ action: 'diagnostics', file: '*' });
    expect(text(result)).toContain('verified: Go at . by go vet ./... in .: 1 error, 0 warnings');
    expect(text(result)).toMatch(/vet.go \(1\)\n {2}5:\d+ error: fmt.Printf format %d has arg "text" of wrong type string/);
  });
});
