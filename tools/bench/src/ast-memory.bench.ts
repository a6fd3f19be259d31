import { execFile } from 'node:child_process';
import { realpathSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';

/**
 * ast memory: peak resident memory (RSS) of one search over Go's standard library (Debian golang-go, about 5.5k
 * files), ast_grep in a fresh Node process against the ast-grep CLI, measured by `/usr/bin/time -f %M` around
 * each process. Medians of AST_MEMORY_ROUNDS (3) runs, for a selective pattern and one every file is parsed for;
 * ours with its defaults (as many workers as CPUs, at most 4), without a tree cache, and with one worker. For ours
 * with its defaults, also the resident memory once the search has answered (the process still running, as an MCP
 * server's would between calls).
 */
const run = promisify(execFile);
const require = createRequire(import.meta.url);
const AST_GREP = join(dirname(require.resolve('@ast-grep/cli/package.json')), 'ast-grep');
const ROUNDS = Number(process.env['AST_MEMORY_ROUNDS'] ?? 3);
const GO = realpathSync('/usr/lib/go/src');

const script = join(tmpdir(), `agent-tools-ast-memory-${process.pid}.mjs`);
writeFileSync(
  script,
  `import { readFileSync } from 'node:fs';
import { astTools, createTreeSitterLoader } from ${JSON.stringify(import.meta.resolve("@agent-tools/ast"))};
import { createRegistry } from ${JSON.stringify(import.meta.resolve("@agent-tools/core"))};
const [cwd, pattern, options] = process.argv.slice(2);
const loader = createTreeSitterLoader(options ? JSON.parse(options) : {});
const registry = createRegistry({ resources: { cwd, treeSitter: loader }, factories: [astTools] });
const result = await registry.call('ast_grep', { pattern, language: 'go', max_results: 1 });
const rss = /VmRSS:\\s+(\\d+)/.exec(readFileSync('/proc/self/status', 'utf8'))?.[1];
console.log(result.structured.totalMatches, rss);
await registry.dispose();
`,
);

async function peakKiB(command: string, args: readonly string[]): Promise<{ kib: number; matches: string; afterKiB: number }> {
  let stderr = '';
  let stdout = '';
  try {
    ({ stdout, stderr } = await run('/usr/bin/time', ['-f', 'RSS %M', command, ...args], { cwd: GO, maxBuffer: 512 * 1024 * 1024 }));
  } catch (error) {
    // ast-grep exits with 1 when nothing matched; time still reports.
    ({ stdout = '', stderr = '' } = error as { stdout?: string; stderr?: string });
  }
  const kib = Number(/RSS (\d+)/.exec(stderr)?.[1] ?? Number.NaN);
  const [count = '', after = ''] = stdout.trim().split(' ');
  const matches = command === AST_GREP ? String(stdout.split('\n').filter((l) => l.startsWith('{')).length) : count;
  return { kib, matches, afterKiB: command === AST_GREP ? Number.NaN : Number(after) };
}

const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] as number;
};

console.log(`Peak RSS of one search over ${GO} (${ROUNDS} runs each, median; fresh process per run).\n`);
console.log(
  '| pattern | ast-grep CLI MB | ast_grep MB | ast_grep, once it answered MB | ast_grep, cacheBytes 0 MB | ast_grep, workers 1 MB | matches (CLI / ours) |',
);
console.log('|---|---:|---:|---:|---:|---:|---|');
for (const pattern of ['return nil, $E', '$A == $A']) {
  const cli: number[] = [];
  const ours: number[] = [];
  const after: number[] = [];
  const uncached: number[] = [];
  const oneWorker: number[] = [];
  let counts = '';
  for (let i = 0; i < ROUNDS; i++) {
    const a = await peakKiB(AST_GREP, ['run', '--pattern', pattern, '--lang', 'go', '--json=stream', '.']);
    const b = await peakKiB(process.execPath, [script, GO, pattern]);
    const c = await peakKiB(process.execPath, [script, GO, pattern, JSON.stringify({ cacheBytes: 0 })]);
    const d = await peakKiB(process.execPath, [script, GO, pattern, JSON.stringify({ workers: 1 })]);
    cli.push(a.kib);
    ours.push(b.kib);
    after.push(b.afterKiB);
    uncached.push(c.kib);
    oneWorker.push(d.kib);
    counts = `${a.matches} / ${b.matches}`;
  }
  const mb = (kib: number): string => (kib / 1024).toFixed(0);
  console.log(
    `| \`${pattern}\` | ${mb(median(cli))} | ${mb(median(ours))} | ${mb(median(after))} | ${mb(median(uncached))} | ${mb(median(oneWorker))} | ${counts} |`,
  );
}
