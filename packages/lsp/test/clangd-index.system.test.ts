import { cpSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startRun, text } from './helpers.js';

// curl's C examples, installed by libcurl4-doc (headers from libcurl4-openssl-dev): real code no one here wrote.
const EXAMPLES = '/usr/share/doc/libcurl4/examples';

/** A compilation database listing every C file of a folder, so clangd indexes them all in the background. */
function compileCommands(dir: string): void {
  const files = readdirSync(dir).filter((f) => f.endsWith('.c')).sort();
  writeFileSync(join(dir, 'compile_commands.json'), JSON.stringify(files.map((file) => ({ directory: dir, file, arguments: ['cc', '-c', file] }))));
}

describe('clangd: an answer is complete, or says it is not', () => {
  it('cold references wait for the background index: every use in every file, first time', { timeout: 240_000 }, async () => {
    // The shared test machine can be loaded far beyond its two cores: a budget for the index that holds there.
    await using run = startRun({}, { indexWaitMs: 180_000 });
    cpSync(EXAMPLES, run.dir.path, { recursive: true, filter: (src) => src === EXAMPLES || src.endsWith('.c') });
    compileCommands(run.dir.path);
    const files = readdirSync(run.dir.path).filter((f) => f.endsWith('.c'));
    // The oracle: every file that writes the type CURL in code (the examples mention it only as a type).
    const expectedFiles = files.filter((f) => /\bCURL\s*\*/.test(readFileSync(join(run.dir.path, f), 'utf8'))).length;
    const line = readFileSync(join(run.dir.path, 'simple.c'), 'utf8').split('\n').findIndex((l) => /^\s*CURL \*curl;/.test(l)) + 1;
    const result = await run.lsp({ action: 'references', file: 'simple.c', line, symbol: 'CURL' });
    expect(result.isError, text(result)).toBe(false);
    expect(text(result)).not.toMatch(/^INCOMPLETE/);
    // The declaration lives in curl.h, outside the working directory; every example that uses the type is listed.
    const match = /^(\d+) references to `CURL` \(simple\.c:\d+\) in (\d+) files\b/.exec(text(result));
    expect(match, text(result).slice(0, 300)).not.toBeNull();
    expect(Number(match?.[2])).toBeGreaterThanOrEqual(expectedFiles);
    expect(Number(match?.[1])).toBeGreaterThan(expectedFiles);
  });

  it('a rename during the first index waits for it and edits every file', { timeout: 120_000 }, async () => {
    await using run = startRun(
      {
        'util.h': '#pragma once\nint helper(int value);\n',
        'util.c': '#include "util.h"\nint helper(int value) { return value + 1; }\n',
        'a.c': '#include "util.h"\nint a(void) { return helper(1); }\n',
        'b.c': '#include "util.h"\nint b(void) { return helper(2); }\n',
        'c.c': '#include "util.h"\nint c(void) { return helper(3) + helper(4); }\n',
      },
      { indexWaitMs: 100_000 },
    );
    compileCommands(run.dir.path);
    const result = await run.call('lsp_rename', { file: 'a.c', line: 2, symbol: 'helper', new_name: 'assist' });
    expect(result.isError, text(result)).toBe(false);
    expect(text(result)).toContain('Renamed `helper` (a.c:2) to `assist`: 6 edits in 5 files.');
    for (const file of ['util.h', 'util.c', 'a.c', 'b.c', 'c.c']) expect(readFileSync(run.dir.join(file), 'utf8')).toContain('assist(');
  });

  it('a query whose budget runs out says so in its first line, with how far the index got', { timeout: 120_000 }, async () => {
    // A budget of 1 ms: the index of 100+ files cannot be done by then.
    await using run = startRun({}, { indexWaitMs: 1 });
    cpSync(EXAMPLES, run.dir.path, { recursive: true, filter: (src) => src === EXAMPLES || src.endsWith('.c') });
    compileCommands(run.dir.path);
    const line = readFileSync(join(run.dir.path, 'simple.c'), 'utf8').split('\n').findIndex((l) => /^\s*CURL \*curl;/.test(l)) + 1;
    const result = await run.lsp({ action: 'references', file: 'simple.c', line, symbol: 'CURL' });
    expect(text(result)).toMatch(/^INCOMPLETE: clangd \(root \.\) is (still indexing( \d+\/\d+)?( \(\d+%\))?|about to index the workspace) after a wait of [\d.]+ s; this answer may miss results\. Call again in a moment for the complete answer\.\n/);
    expect(result.structured).toMatchObject({ incomplete: expect.stringContaining('clangd') });
    const rename = await run.call('lsp_rename', { file: 'simple.c', line, symbol: 'curl', occurrence: 1, new_name: 'handle' });
    expect(rename.isError).toBe(true);
    expect(text(rename)).toMatch(/a rename computed now could miss files, so nothing was changed\. Call lsp_rename again in a moment\.$/);
  });
});

describe('clangd: a whole-project check of real code', () => {
  it("diagnostics \"*\" on curl's examples: every file opened gets its answer, none is left waiting", { timeout: 240_000 }, async () => {
    await using run = startRun({}, { indexWaitMs: 180_000 });
    cpSync(EXAMPLES, run.dir.path, { recursive: true, filter: (src) => src === EXAMPLES || src.endsWith('.c') });
    compileCommands(run.dir.path);
    const files = readdirSync(run.dir.path).filter((f) => f.endsWith('.c')).length;
    const result = await run.lsp({ action: 'diagnostics', file: '*' });
    expect(text(result).split('\n')[1]).toMatch(new RegExp(`^ {2}verified: C/C\\+\\+ at \\. by opening ${files} files with clangd: \\d+ errors, \\d+ warnings$`));
  });
});
