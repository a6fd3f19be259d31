import { execFile, execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { approveAll, createRegistry, resultText } from '@agent-tools/core';
import { tempDir } from '@agent-tools/test-utils';
import { describe, expect, it } from 'vitest';
import { astTools, createTreeSitterLoader, type TreeSitterLoaderOptions } from '../src/index.js';
import { AST_GREP } from './corpus.js';

/** Where the child harness resolves `@agent-tools/ast` (the built package) and `@agent-tools/core`. */
const PACKAGE_DIR = fileURLToPath(new URL('..', import.meta.url));
const require = createRequire(join(PACKAGE_DIR, 'package.json'));

/** 50,000 nested array literals: the file that killed the process searching it. */
const DEPTH = 50_000;
/** Deep enough for any recursion over the tree to run out of call stack (about 10,000 frames), for rules that walk it whole per candidate. */
const DEEP = 20_000;
const nestedArrays = (depth: number): string => `const x = ${'['.repeat(depth)}${']'.repeat(depth)};\n`;

/**
 * Calls a tool in a harness of its own, a Node process whose heap is capped (so running out of memory shows in
 * seconds, not after filling 4 GB), through a registry with astTools whose searches all go to worker threads. Resolves
 * with its exit code and what it printed: the answer's text and structured part as one JSON line.
 */
function harnessCall(dir: string, tool: string, args: Record<string, unknown>, heapMb = 256): Promise<{ code: number | null; answer?: { isError: boolean; text: string; structured: unknown }; stderr: string }> {
  // A script file, not `-e`: the search worker inherits the process's flags, and `--input-type` stops it.
  const script = join(dir, 'harness.mjs');
  writeFileSync(
    script,
    `
    import { approveAll, createRegistry, resultText } from ${JSON.stringify(pathToFileURL(require.resolve('@agent-tools/core')).href)};
    import { astTools, createTreeSitterLoader } from ${JSON.stringify(pathToFileURL(join(PACKAGE_DIR, 'dist/index.js')).href)};
    const loader = createTreeSitterLoader({ workers: 1, inlineBytes: 0 });
    const registry = createRegistry({ resources: { cwd: ${JSON.stringify(dir)}, treeSitter: loader }, factories: [astTools], approve: approveAll });
    const result = await registry.call(${JSON.stringify(tool)}, ${JSON.stringify(args)});
    process.stdout.write(JSON.stringify({ isError: result.isError === true, text: resultText(result), structured: result.structured }));
    await loader.dispose();
  `,
  );
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [`--max-old-space-size=${heapMb}`, script],
      { cwd: PACKAGE_DIR, timeout: 60_000, maxBuffer: 64 * 1024 * 1024 },
      (error, stdout, stderr) => {
        const code = error ? ((error as { code?: unknown }).code ?? null) : 0;
        resolve({ code: typeof code === 'number' ? code : null, ...(stdout ? { answer: JSON.parse(stdout) } : {}), stderr });
      },
    );
  });
}

describe('hostile files: the harness answers, bounded, and does not die', () => {
  it('ast_grep [$$$A] over 50,000 nested arrays, searched by a worker: every match counted, the first page shown, each text cut to its head', async () => {
    await using dir = tempDir({ 'a.js': nestedArrays(DEPTH) });
    const run = await harnessCall(dir.path, 'ast_grep', { pattern: '[$$$A]', path: 'a.js' });
    expect(run.stderr).not.toContain('heap out of memory');
    expect(run.code).toBe(0);
    const answer = run.answer as { isError: boolean; text: string; structured: { totalMatches: number; shownMatches: number; matches: { text: string; textLength?: number; startColumn: number; captures: Record<string, { text: string; textLength?: number }> }[] } };
    expect(answer.isError).toBe(false);
    expect(answer.text.split('\n')[0]).toBe(`${DEPTH} matches of \`[$$$A]\` in 1 file (searched a.js (javascript)); 1-50 shown; continue with offset 50.`);
    expect(answer.structured.totalMatches).toBe(DEPTH);
    expect(answer.structured.shownMatches).toBe(50);
    const [outer, second] = answer.structured.matches;
    // The outermost array is the whole literal: its head is kept, its length told.
    expect(outer?.startColumn).toBe(11);
    expect(outer?.textLength).toBe(2 * DEPTH);
    expect(outer?.text).toBe('['.repeat(2000));
    expect(outer?.captures['A']?.textLength).toBe(2 * DEPTH - 2);
    expect(second?.textLength).toBe(2 * DEPTH - 2);
    // The line shown says how long it really is.
    expect(answer.text.split('\n')[3]).toBe(`  1: ${'['.repeat(160)}… (${2 * DEPTH - 160} more characters)`);
  });
});

/** Calls a tool in this process, through a registry with astTools, searching on this thread. */
async function call(files: Record<string, string>, tool: string, args: Record<string, unknown>, options: TreeSitterLoaderOptions = {}) {
  await using dir = tempDir(files);
  await using loader = createTreeSitterLoader({ workers: 0, ...options });
  const bugs: unknown[] = [];
  const registry = createRegistry({ resources: { cwd: dir.path, treeSitter: loader }, factories: [astTools], approve: approveAll, onError: (error) => bugs.push(error) });
  const result = await registry.call(tool, args);
  return { text: resultText(result), structured: result.structured as Record<string, unknown>, isError: result.isError === true, bugs };
}

describe('hostile files, on the calling thread: no call stack runs out, every answer is bounded', () => {
  it('ast_edit rewrites the outermost of 50,000 nested arrays, counts the rest, and shows the one long diff line cut', async () => {
    const found = await call({ 'a.js': nestedArrays(DEPTH) }, 'ast_edit', { pattern: '[$$$A]', rewrite: 'list($$$A)', path: 'a.js' });
    expect(found.bugs).toEqual([]);
    expect(found.isError).toBe(false);
    expect(found.text.split('\n')[0]).toMatch(/^\(proposed\) 1 replacement in 1 file: a\.js \(1\)\./);
    expect(found.text).toContain(`${DEPTH - 1} matches nested inside a replaced match were left as they are`);
    expect(found.structured['innerMatchesLeft']).toBe(DEPTH - 1);
    // The staged diff is whole (structured); the answer's text shows each of its two long lines cut.
    expect(found.structured['diff']).toContain(`+const x = list(${'['.repeat(DEPTH - 1)}`);
    expect(found.text).toContain(`-const x = ${'['.repeat(489)}… (${11 + 2 * DEPTH + 1 - 500} more characters)`);
    expect(found.text.length).toBeLessThan(5000);
  });

  it('ast_tree shows 50,000 nested arrays, its lines short however deep the node', async () => {
    const found = await call({ 'a.js': nestedArrays(DEPTH) }, 'ast_tree', { path: 'a.js', max_lines: 60 });
    expect(found.bugs).toEqual([]);
    expect(found.isError).toBe(false);
    const lines = found.text.split('\n');
    expect(lines[0]).toBe(`Partial: 60 of ${DEPTH + 4} nodes of a.js shown (max_lines 60); narrow start_line/end_line or raise max_lines.`);
    expect(lines.at(-1)).toBe(`${'  '.repeat(40)}(depth 58) array 1:${11 + 55}-1:${11 + 2 * DEPTH - 55}`);
    expect(Math.max(...lines.map((l) => l.length))).toBeLessThan(200);
  });

  it('a repeated metavariable compares two captures 50,000 levels deep', async () => {
    const deep = `${'['.repeat(DEPTH)}1${']'.repeat(DEPTH)}`;
    const other = `${'['.repeat(DEPTH)}2${']'.repeat(DEPTH)}`;
    const found = await call({ 'a.js': `f(${deep}, ${deep});\nf(${deep}, ${other});\n` }, 'ast_grep', { pattern: 'f($A, $A)', path: 'a.js' });
    expect(found.bugs).toEqual([]);
    expect(found.text.split('\n')[0]).toBe('1 match of `f($A, $A)` in 1 file (searched a.js (javascript)).');
    expect(found.structured['matches']).toMatchObject([{ startLine: 1 }]);
  });

  it('a syntax error 50,000 levels deep is found and named; an edit of that file says the error was there before', async () => {
    const broken = `const x = ${'['.repeat(DEPTH)}1,,;${']'.repeat(DEPTH)};\nfoo(1);\n`;
    const found = await call({ 'a.js': broken }, 'ast_grep', { pattern: 'foo($A)', path: 'a.js' });
    expect(found.bugs).toEqual([]);
    expect(found.text).toContain('1 file with syntax errors was searched anyway; matches inside the broken part may be missing: a.js:1.');
    const edit = await call({ 'a.js': broken }, 'ast_edit', { pattern: 'foo($A)', rewrite: 'bar($A)', path: 'a.js' });
    expect(edit.bugs).toEqual([]);
    expect(edit.isError).toBe(false);
    expect(edit.text.split('\n')[0]).toMatch(/^\(proposed\) 1 replacement in 1 file/);
    expect(edit.structured['breaksSyntax']).toEqual([]);
  });

  it('`has` looking all the way down 20,000 nested arrays for what is not there: matching stops at its time budget and the answer says first that it is incomplete', async () => {
    const rule = JSON.stringify({ kind: 'array', has: { kind: 'string', stopBy: 'end' } });
    // A budget of 0 stops at the first poll, after a few candidates (each a walk to the bottom): no timing involved.
    const found = await call({ 'a.js': nestedArrays(DEEP) }, 'ast_grep', { rule, path: 'a.js' }, { matchTimeoutMs: 0 });
    expect(found.bugs).toEqual([]);
    const lines = found.text.split('\n');
    expect(lines[0]).toBe('Incomplete: 1 file was searched only in part (named at the end).');
    expect(lines[1]).toMatch(/^No match for the rule /);
    expect(lines.at(-1)).toBe('1 file searched only in part, the matches after the place where matching stopped not looked for: a.js (matching stopped after 0 ms).');
    // The same with a stop rule: the walk goes down until an array without a nested one.
    const stopped = JSON.stringify({ kind: 'array', has: { kind: 'string', stopBy: { kind: 'number' } } });
    const again = await call({ 'a.js': nestedArrays(DEEP) }, 'ast_grep', { rule: stopped, path: 'a.js' }, { matchTimeoutMs: 0 });
    expect(again.bugs).toEqual([]);
    expect(again.text.split('\n')[0]).toBe('Incomplete: 1 file was searched only in part (named at the end).');
  });

  it('a small search whose matching needs longer than a moment is handed to a worker: the calling thread is not held for the whole budget', async () => {
    const rule = JSON.stringify({ kind: 'array', has: { kind: 'string', stopBy: 'end' } });
    // The event loop's longest stall while the search runs: inline, it was the whole match budget.
    let longest = 0;
    let last = Date.now();
    const tick = setInterval(() => {
      longest = Math.max(longest, Date.now() - last);
      last = Date.now();
    }, 20);
    try {
      const found = await call({ 'a.js': nestedArrays(DEEP) }, 'ast_grep', { rule, path: 'a.js' }, { workers: 1, matchTimeoutMs: 4000 });
      expect(found.bugs).toEqual([]);
      // The worker's answer, with the full budget (inline, matching stops after 1000 ms).
      expect(found.text.split('\n').at(-1)).toBe('1 file searched only in part, the matches after the place where matching stopped not looked for: a.js (matching stopped after 4000 ms).');
    } finally {
      clearInterval(tick);
    }
    // A stall that ended with the call has had no tick after it.
    longest = Math.max(longest, Date.now() - last);
    expect(longest).toBeLessThan(3000);
  });

  it('an edit whose matching stops at its time budget leaves the file out, never rewrites it in part', async () => {
    const rule = JSON.stringify({ kind: 'array', not: { has: { kind: 'string', stopBy: 'end' } } });
    const found = await call({ 'a.js': nestedArrays(DEEP) }, 'ast_edit', { rule, rewrite: '0', path: 'a.js' }, { matchTimeoutMs: 0 });
    expect(found.bugs).toEqual([]);
    expect(found.text.split('\n')[0]).toBe('Incomplete: 1 file could not be searched (named at the end).');
    expect(found.text).toContain('a.js (matching took longer than 0 ms)');
    expect(found.structured['replacements']).toBe(0);
  });

  it('`inside` looking all the way up 50,000 nested arrays finds every one inside another, in one pass', async () => {
    const rule = JSON.stringify({ kind: 'array', inside: { kind: 'array', stopBy: 'end' } });
    const found = await call({ 'a.js': nestedArrays(DEPTH) }, 'ast_grep', { rule, path: 'a.js', max_results: 1 });
    expect(found.bugs).toEqual([]);
    expect(found.text.split('\n')[0]).toMatch(new RegExp(`^${DEPTH - 1} matches of the rule .* in 1 file \\(searched a\\.js \\(javascript\\)\\); 1-1 shown; continue with offset 1\\.$`));
  });

  it('an edit of 3,000 one-line statements diffs the changed lines line against line (a shortest diff would cost the lines times the changes)', async () => {
    const found = await call({ 'a.js': 'a;\n'.repeat(3000) }, 'ast_edit', { pattern: 'a', rewrite: 'b', path: 'a.js' });
    expect(found.bugs).toEqual([]);
    expect(found.text.split('\n')[0]).toMatch(/^\(proposed; diff preview cut at 150 of 6003 lines\) 3000 replacements in 1 file/);
    const diff = String(found.structured['diff']).split('\n');
    expect(diff.slice(0, 7)).toEqual(['--- a/a.js', '+++ b/a.js', '@@ -1,3000 +1,3000 @@', '-a;', '+b;', '-a;', '+b;']);
    expect(found.text).toContain('Every change (original line numbers):\n  a.js: 1-3000\n');
  });

  it('the list of every change names 30 ranges per file and counts the rest', async () => {
    const code = Array.from({ length: 100 }, (_, i) => `a(${i});\n${'x;\n'.repeat(7)}`).join('');
    const found = await call({ 'a.js': code }, 'ast_edit', { pattern: 'a($N)', rewrite: 'b($N)', path: 'a.js' });
    expect(found.bugs).toEqual([]);
    const ranges = Array.from({ length: 30 }, (_, i) => String(1 + 8 * i)).join(', ');
    expect(found.text).toContain(`Every change (original line numbers):\n  a.js: ${ranges} and 70 more\n`);
  });

  it('a pattern nested 5,000 levels deep is refused with what to write instead, not a crash of the compiler', async () => {
    const pattern = `${'['.repeat(5000)}$A${']'.repeat(5000)}`;
    const found = await call({ 'a.js': nestedArrays(10) }, 'ast_grep', { pattern, path: 'a.js' });
    expect(found.bugs).toEqual([]);
    expect(found.isError).toBe(true);
    expect(found.text).toBe(
      'The pattern nests too deeply to compile (the call stack ran out). Write a shallower pattern: a metavariable such as $A stands for a whole subtree, and a rule\'s "has" or "inside" with "stopBy": "end" reaches any depth.',
    );
  });

  it('odd text: a BOM, CRLF, astral characters and bytes that are not UTF-8 are searched (columns as the CLI gives them); an edit leaves the undecodable file out and says so first', async () => {
    const valid = '\uFEFFf(1);\r\n  f("\u{1F600}", 2);\r\n';
    // A surrogate encoded alone (CESU-8) and a stray 0xFF: what the CLI silently finds nothing in.
    const invalid = Buffer.concat([Buffer.from('g(0);\r\nf("'), Buffer.from([0xed, 0xa0, 0x80]), Buffer.from('");\r\nf("x'), Buffer.from([0xff]), Buffer.from('");\r\n')]);
    await using dir = tempDir({ 'b.js': valid });
    writeFileSync(join(dir.path, 'a.js'), invalid);
    await using loader = createTreeSitterLoader({ workers: 0 });
    const bugs: unknown[] = [];
    const registry = createRegistry({ resources: { cwd: dir.path, treeSitter: loader }, factories: [astTools], approve: approveAll, onError: (error) => bugs.push(error) });
    const grep = await registry.call('ast_grep', { pattern: 'f($$$A)', language: 'javascript' });
    const ours = (grep.structured as { matches: { file: string; startLine: number; startColumn: number; text: string }[] }).matches;
    const theirs = (JSON.parse(execFileSync(AST_GREP, ['run', '-p', 'f($$$A)', '-l', 'js', '--json=compact', 'b.js'], { cwd: dir.path, encoding: 'utf8' })) as { text: string; range: { start: { line: number; column: number } } }[]).map(
      (m) => ({ file: 'b.js', startLine: m.range.start.line + 1, startColumn: m.range.start.column + 1, text: m.text }),
    );
    expect(theirs).toHaveLength(2);
    expect(ours.filter((m) => m.file === 'b.js').map(({ file, startLine, startColumn, text }) => ({ file, startLine, startColumn, text }))).toEqual(theirs);
    expect(ours.filter((m) => m.file === 'a.js').map((m) => [m.startLine, m.text])).toEqual([
      [2, 'f("\uFFFD\uFFFD\uFFFD")'],
      [3, 'f("x\uFFFD")'],
    ]);
    const edit = await registry.call('ast_edit', { pattern: 'f($$$A)', rewrite: 'h($$$A)', language: 'javascript' });
    const lines = resultText(edit).split('\n');
    expect(lines[0]).toBe('Incomplete: left out because they changed during the search or are not valid UTF-8 (their bytes could not be written back as they are): a.js.');
    expect(lines[1]).toMatch(/^\(proposed\) 2 replacements in 1 file: b\.js \(2\)\./);
    expect(lines).toContain('+\uFEFFh(1);\r');
    const alone = await registry.call('ast_edit', { pattern: 'f($$$A)', rewrite: 'h($$$A)', path: 'a.js' });
    expect(resultText(alone).split('\n').slice(0, 2)).toEqual([
      'Incomplete: left out because they changed during the search or are not valid UTF-8 (their bytes could not be written back as they are): a.js.',
      'Nothing to edit: every match is in a file left out.',
    ]);
    expect(bugs).toEqual([]);
  });

  it('a 20 MB one-line file and a file with a NUL byte are not searched, and the answer says so first instead of "no match"', async () => {
    const big = await call({ 'big.js': `const a = [${'1,'.repeat(10_000_000)}];\n` }, 'ast_grep', { pattern: '$A', path: 'big.js' });
    expect(big.text.split('\n').slice(0, 2)).toEqual([
      'Incomplete: 1 file was skipped as too large (named at the end).',
      'Nothing was searched: big.js (19531 KiB) is larger than the size searched (files over it are skipped); a text search can look inside it.',
    ]);
    const nul = await call({ 'a.js': 'f(1);\nconst s = "a\u0000b";\n' }, 'ast_grep', { pattern: 'f($A)', path: 'a.js' });
    expect(nul.text.split('\n').slice(0, 2)).toEqual([
      'Incomplete: 1 file was skipped as binary (named at the end).',
      'Nothing was searched: a.js holds a NUL byte among its first 8,000 bytes, so it is taken for a binary file and skipped; a text search can look inside it.',
    ]);
    // In a folder, the other files are searched and the answer still starts with what was not.
    const folder = await call({ 'a.js': 'f(1);\nconst s = "a\u0000b";\n', 'b.js': 'f(2);\n' }, 'ast_grep', { pattern: 'f($A)', language: 'javascript' });
    expect(folder.text.split('\n').slice(0, 2)).toEqual([
      'Incomplete: 1 file was skipped as binary (named at the end).',
      '1 match of `f($A)` in 1 file (searched 1 javascript file (.js, .mjs, .cjs, .jsx) under the working directory).',
    ]);
  });

  it('a long match of many lines is shown from the head its record keeps: line lengths and line counts exact', async () => {
    // A call whose first line is 3,002 characters, then 10 more lines: the record keeps its first 2,000 (the lines
    // after the first are not in it, and are counted).
    const code = `f(${'x,'.repeat(1500)}\n${'  y,\n'.repeat(10)});\n`;
    const found = await call({ 'a.js': code }, 'ast_grep', { pattern: 'f($$$A)', path: 'a.js' });
    const lines = found.text.split('\n');
    expect(lines.slice(3, 6)).toEqual([
      `  1-12: f(${'x,'.repeat(79)}… (${3002 - 160} more characters)`,
      '        … (11 more lines)',
      `        $$$A: ${'x,'.repeat(50)}… (${3000 - 100} more characters) … (+10 lines)`,
    ]);
    const match = (found.structured['matches'] as { text: string; textLength?: number; captures: Record<string, { textLength?: number; items?: string[]; itemCount?: number }> }[])[0];
    expect(match?.text).toBe(code.slice(0, 2000));
    expect(match?.textLength).toBe(code.length - 2);
    expect(match?.captures['A']?.items).toHaveLength(50);
    expect(match?.captures['A']?.itemCount).toBe(1510);
  });

  it('an edit of more than 20,000 matches stages nothing and says how to make it in parts (a million one-line statements took 2.4 GB and a minute)', async () => {
    const found = await call({ 'a.js': 'a;\n'.repeat(20_001), 'b.js': 'a;\n' }, 'ast_edit', { pattern: 'a', rewrite: 'b', language: 'javascript' });
    expect(found.bugs).toEqual([]);
    expect(found.isError).toBe(true);
    expect(found.text).toBe(
      '20002 matches to rewrite in 2 files (a.js (20001), b.js (1)): one edit stages at most 20,000. Nothing was staged. Rewrite in parts: narrow `path` to a folder or a file at a time (accepting each part before the next), or make the pattern more specific.',
    );
    // The model reads the limit before it meets it.
    await using loader = createTreeSitterLoader({ workers: 0 });
    const registry = createRegistry({ resources: { cwd: process.cwd(), treeSitter: loader }, factories: [astTools], approve: approveAll });
    const edit = registry.tools().find((tool) => tool.name === 'ast_edit');
    expect(edit?.description).toContain('One edit stages at most 20,000 replacements; past that nothing is staged: rewrite a folder or a file at a time.');
  });

  it('counts over 5,000 nested arrays and calls are the ast-grep CLI\'s, and the first page is its first matches', async () => {
    const files = { 'arrays.js': nestedArrays(5000), 'calls.js': `const x = ${'f('.repeat(5000)}${')'.repeat(5000)};\n` };
    await using dir = tempDir(files);
    await using loader = createTreeSitterLoader({ workers: 0 });
    const registry = createRegistry({ resources: { cwd: dir.path, treeSitter: loader }, factories: [astTools], approve: approveAll });
    for (const [file, pattern] of [
      ['arrays.js', '[$$$A]'],
      ['arrays.js', '$A'],
      ['calls.js', '$F($$$X)'],
      ['calls.js', 'f($A)'],
    ] as const) {
      const theirs = execFileSync(AST_GREP, ['run', '-p', pattern, '-l', 'js', '--json=stream', file], { cwd: dir.path, encoding: 'utf8', maxBuffer: 1024 * 1024 * 1024 })
        .split('\n')
        .filter(Boolean)
        .map((line) => (JSON.parse(line) as { range: { byteOffset: { start: number; end: number } } }).range.byteOffset);
      const result = await registry.call('ast_grep', { pattern, path: file, max_results: 20 });
      const ours = result.structured as { totalMatches: number; matches: { startColumn: number; endColumn: number; startLine: number; endLine: number }[] };
      expect(ours.totalMatches, `${pattern} in ${file}`).toBe(theirs.length);
      // ASCII on one line: byte offsets are columns (the program, which ends on line 2, is left out of the comparison).
      // The CLI's order is ours (position, outer first).
      const first = [...theirs].sort((a, b) => a.start - b.start || b.end - a.end).slice(0, 20);
      expect(ours.matches.filter((m) => m.endLine === 1).map((m) => [m.startColumn - 1, m.endColumn - 1]), `${pattern} in ${file}`).toEqual(
        first.filter((r) => r.end <= files[file].indexOf('\n')).map((r) => [r.start, r.end]),
      );
    }
  });
});
