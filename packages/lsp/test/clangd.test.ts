import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Run, startRun, text } from './helpers.js';

const files = {
  'compile_flags.txt': '-Wall\n-std=c11\n',
  'math.h': '#pragma once\n/* Adds two numbers. */\nint add(int a, int b);\n',
  'math.c': '#include "math.h"\n\nint add(int a, int b) { return a + b; }\n',
  'main.c': '#include <stdio.h>\n#include "math.h"\n\nint main(void) {\n  printf("%d\\n", add(1, 2));\n  return 0;\n}\n',
};

describe('lsp against clangd (versioned binary name)', () => {
  let run: Run;
  beforeAll(() => {
    run = startRun(files);
  });
  afterAll(async () => {
    await run[Symbol.asyncDispose]();
  });

  it('finds clangd under a versioned name and answers hover and definition', async () => {
    const hover = await run.lsp({ action: 'hover', file: 'main.c', line: 5, symbol: 'add' });
    expect(text(hover)).toContain('int add(int a, int b)');
    const definition = await run.lsp({ action: 'definition', file: 'main.c', line: 5, symbol: 'add' });
    expect(text(definition)).toMatch(/math\.[ch]\n {2}3:5 {2}int add\(int a, int b\)/);
    const status = await run.lsp({ action: 'status' });
    expect(text(status)).toMatch(/clangd \(C\/C\+\+;[^\n]*\n {2}running for \.: pid \d+, [^\n]*binary \/usr\/bin\/clangd(-\d+)?/);
  });

  it('incoming_calls lists call sites; outgoing_calls, which clangd 19 lacks, is refused with a clear sentence', async () => {
    const incoming = await run.lsp({ action: 'incoming_calls', file: 'math.c', line: 3, symbol: 'add' });
    expect(text(incoming)).toBe('1 call to `add` (math.c:3):\nmain.c\n  5:18  printf("%d\\n", add(1, 2));  (in function main)');
    const outgoing = await run.lsp({ action: 'outgoing_calls', file: 'main.c', line: 4, symbol: 'main' });
    expect(outgoing.isError).toBe(true);
    expect(text(outgoing)).toBe('clangd offers a call hierarchy but not outgoing calls. Use definition on the calls in its body instead.');
  });

  it('diagnostics on write and "*" by opening every file with the server', async () => {
    const result = await run.call('write', { path: 'bad.c', content: 'int broken(void) { return "text"; }\n' });
    expect(text(result)).toContain('New diagnostics in bad.c (1):');
    expect(text(result)).toMatch(/1:\d+ error[^\n]*[Ii]ncompatible pointer to integer conversion returning 'char\[5\]'/);
    const project = await run.lsp({ action: 'diagnostics', file: '*' });
    expect(text(project)).toMatch(/verified: C\/C\+\+ at \. by opening 4 files with clangd: 1 error, 0 warnings/);
    expect(text(project)).toContain('bad.c (1)');
  });
});
