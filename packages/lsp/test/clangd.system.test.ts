import { readFileSync, utimesSync, writeFileSync } from 'node:fs';
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

describe("clangd's diagnostics after a header changes (it publishes once from the old preamble, then again)", () => {
  // clang tells a changed header by size and modification time in whole seconds: a header written in the same second
  // as the fixture with the same length would look unchanged. Real headers were written long before the edit.
  const aged = (run: Run) => {
    const hourAgo = new Date(Date.now() - 3600_000);
    for (const file of ['lib.h', 'lib.c', 'main.c']) utimesSync(run.dir.join(file), hourAgo, hourAgo);
  };
  const project = {
    'compile_flags.txt': '-std=c11\n',
    'lib.h': '#pragma once\nint helper(void);\n',
    'lib.c': '#include "lib.h"\nint helper(void) { return 1; }\n',
    'main.c': '#include "lib.h"\nint main(void) { return helper(); }\n',
  };

  it('a rename across a header reports no error of the header as it was', async () => {
    await using run = startRun(project);
    aged(run);
    const result = await run.call('lsp_rename', { file: 'main.c', line: 2, symbol: 'helper', new_name: 'assist' });
    expect(result.isError, text(result)).toBe(false);
    expect(text(result)).toContain('Renamed `helper` (main.c:2) to `assist`: 3 edits in 3 files.');
    expect(text(result)).not.toContain('New diagnostics');
    expect(text(result)).toContain('No new diagnostics in');
    const now = await run.lsp({ action: 'diagnostics', file: 'main.c' });
    expect(text(now)).toBe('No errors or warnings in main.c (checked by clangd).');
  });

  it('a write of a header and a source together (an apply_patch) reports no error of the header as it was', async () => {
    await using run = startRun(project);
    aged(run);
    await run.lsp({ action: 'hover', file: 'main.c', line: 2, symbol: 'helper' });
    const written = await run.call('write_many', {
      files: { 'lib.h': '#pragma once\nint assist(void);\n', 'main.c': '#include "lib.h"\nint main(void) { return assist(); }\n' },
    });
    expect(text(written)).not.toContain('New diagnostics in main.c');
  });
});

describe('clangd: a file that is not UTF-8', () => {
  it('a rename touching it is refused with that reason (it read as "changed on disk, call again" before)', async () => {
    await using run = startRun({ 'compile_flags.txt': '-std=c11\n' });
    writeFileSync(run.dir.join('a.c'), Buffer.concat([Buffer.from('/* caf'), Buffer.from([0xe9]), Buffer.from(' */\nint helper(void) { return 1; }\nint main(void) { return helper(); }\n')]));
    const before = readFileSync(run.dir.join('a.c'));
    const result = await run.call('lsp_rename', { file: 'a.c', line: 3, symbol: 'helper', new_name: 'assist' });
    expect(text(result)).toBe('a.c is not UTF-8 text (line 1 has other bytes), and edits are made on UTF-8 only; nothing was changed. Edit it with your own tools, or convert it to UTF-8 first.');
    expect(readFileSync(run.dir.join('a.c')).equals(before)).toBe(true);
  });
});
