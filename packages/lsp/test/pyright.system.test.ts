import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { type Run, startRun, text } from './helpers.js';

const files = {
  'pyproject.toml': '[project]\nname = "stock"\nversion = "0.1.0"\n',
  'stock/__init__.py': '',
  'stock/levels.py': [
    '"""Stock levels."""',
    'from dataclasses import dataclass',
    '',
    '',
    '@dataclass',
    'class Level:',
    '    """One line of stock."""',
    '',
    '    sku: str',
    '    quantity: int',
    '',
    '',
    'def below(levels: list[Level], threshold: int) -> list[str]:',
    '    """The SKUs under the threshold."""',
    '    return [level.sku for level in levels if level.quantity < threshold]',
    '',
  ].join('\n'),
  'report.py': ['from stock.levels import Level, below', '', 'print(below([Level("A1", 3)], 5))', ''].join('\n'),
};

describe('pyright, cold', () => {
  it('the first workspace symbol search of a fresh run waits for the workspace and finds the class', async () => {
    await using run = startRun(files);
    const result = await run.lsp({ action: 'symbols', query: 'Level' });
    expect(text(result)).toContain('stock/levels.py\n  6: class Level');
  });
});

describe('lsp against pyright', () => {
  let run: Run;
  beforeAll(() => {
    run = startRun(files);
  });
  afterAll(async () => {
    await run[Symbol.asyncDispose]();
  });

  it('hover shows the signature and docstring', async () => {
    const result = await run.lsp({ action: 'hover', file: 'report.py', line: 3, symbol: 'below' });
    expect(text(result)).toContain('(function) def below(');
    expect(text(result)).toContain('The SKUs under the threshold.');
  });

  it('definition resolves across modules', async () => {
    const result = await run.lsp({ action: 'definition', file: 'report.py', line: 3, symbol: 'Level' });
    expect(text(result)).toContain('stock/levels.py\n  6:7  class Level:');
  });

  it('references find every use in every file', async () => {
    const result = await run.lsp({ action: 'references', file: 'stock/levels.py', line: 13, symbol: 'below' });
    const body = text(result);
    expect(body).toMatch(/^3 references to `below` \(stock\/levels.py:13\) in 2 files:/);
    expect(body).toContain('report.py\n  1:33  from stock.levels import Level, below\n  3:7  print(below([Level("A1", 3)], 5))');
  });

  it('a warm references call asks pyright once: its "Finding references" progress is not taken for indexing', async () => {
    await run.lsp({ action: 'references', file: 'stock/levels.py', line: 13, symbol: 'below' });
    const server = await run.supervisor.serverFor(run.dir.join('stock/levels.py'));
    const begun = server.work.begun;
    const request = vi.spyOn(server, 'request');
    try {
      const result = await run.lsp({ action: 'references', file: 'stock/levels.py', line: 13, symbol: 'below' });
      expect(text(result)).toMatch(/^3 references to `below`/);
      expect(request.mock.calls.filter(([type]) => type.method === 'textDocument/references')).toHaveLength(1);
      expect(server.work.begun).toBe(begun);
    } finally {
      request.mockRestore();
    }
  });

  it('incoming_calls and outgoing_calls', async () => {
    const incoming = await run.lsp({ action: 'incoming_calls', file: 'stock/levels.py', line: 13, symbol: 'below' });
    expect(text(incoming)).toMatch(/^1 call to `below` \(stock\/levels.py:13\):\nreport.py\n {2}3:7 {2}print\(below\(\[Level\("A1", 3\)\], 5\)\) {2}\(in module report\.py\)$/);
    const outgoing = await run.lsp({ action: 'outgoing_calls', file: 'report.py', line: 3, symbol: 'below' });
    expect(text(outgoing)).toBe('`below` (report.py:3) calls nothing the server knows of.'.replace('nothing', 'no function'));
  });

  it('symbols outline a module', async () => {
    const result = await run.lsp({ action: 'symbols', file: 'stock/levels.py' });
    expect(text(result)).toContain('6: class Level');
    expect(text(result)).toContain('13: function below');
  });

  it('diagnostics of a file and "*" with the pyright command line', async () => {
    run.dir.write({ 'bad.py': 'def f(x: int) -> str:\n    return x\n' });
    const file = await run.lsp({ action: 'diagnostics', file: 'bad.py' });
    expect(text(file)).toMatch(/2:12 error reportReturnType: Type "int" is not assignable to return type "str"/);
    const project = await run.lsp({ action: 'diagnostics', file: '*' });
    expect(text(project)).toContain('verified: Python at . by pyright --project .: 1 error, 0 warnings');
    expect(text(project)).toMatch(/bad.py \(1\)\n {2}2:12 error reportReturnType: Type "int" is not assignable to return type "str"/);
  });

  it('lsp_rename renames a function across modules', async () => {
    const result = await run.call('lsp_rename', { file: 'report.py', line: 3, symbol: 'below', new_name: 'under' });
    expect(text(result)).toContain('Renamed `below` (report.py:3) to `under`: 3 edits in 2 files.');
    expect(readFileSync(run.dir.join('report.py'), 'utf8')).toBe('from stock.levels import Level, under\n\nprint(under([Level("A1", 3)], 5))\n');
  });

  it('reload starts a new pyright, and status shows it', async () => {
    const before = run.supervisor.running()[0]?.pid;
    const result = await run.lsp({ action: 'reload', file: 'report.py' });
    const after = run.supervisor.running()[0]?.pid;
    expect(text(result)).toBe(`pyright (root .) restarted: pid ${before} → ${after}.`);
    expect(text(await run.lsp({ action: 'status' }))).toContain(`running for .: pid ${after}`);
    const hover = await run.lsp({ action: 'hover', file: 'report.py', line: 3, symbol: 'under' });
    expect(text(hover)).toContain('def under(');
  });
});
