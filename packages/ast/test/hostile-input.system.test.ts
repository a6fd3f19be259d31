import { execFile } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { tempDir } from '@agent-tools/test-utils';
import { describe, expect, it } from 'vitest';

/** Where the child harness resolves `@agent-tools/ast` (the built package) and `@agent-tools/core`. */
const PACKAGE_DIR = fileURLToPath(new URL('..', import.meta.url));
const require = createRequire(join(PACKAGE_DIR, 'package.json'));

/** 50,000 nested array literals: the file that killed the process searching it. */
const DEPTH = 50_000;
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
