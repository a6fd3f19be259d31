import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { astTools, createTreeSitterLoader, type TreeSitterLoader } from '@agent-tools/ast';
import { createRegistry, type Registry } from '@agent-tools/core';
import { astBefore } from './ast-before.js';
import { buildCorpus } from './js-corpus.js';
import { timed, timing, timingTable } from './measure.js';

/**
 * ast: ast_grep against the ast-grep CLI (@ast-grep/cli) on the same real corpus, same patterns, in one run:
 *   - a selective pattern (its literal identifier is in few files): ours must be at most 1.0x the CLI;
 *   - a pattern with no literal identifier ($A === $A; only its operator can rule files out): at most 2x the CLI;
 *   - that search repeated with the same loader: at most 0.25x the first (parsed trees are cached);
 *   - and, for the record, a pattern without any token to prefilter on ($F($X, $X): every file is parsed).
 * The corpus is generated at bench time: the JavaScript files (under 100 KB, not minified) of the npm packages
 * installed in this workspace's node_modules, copied into a temporary directory. Rounds alternate between the
 * CLI and ours so load on the machine hits both alike; medians are reported.
 */
const run = promisify(execFile);
const require = createRequire(import.meta.url);
const AST_GREP = join(dirname(require.resolve('@ast-grep/cli/package.json')), 'ast-grep');
const FILES = Number(process.env['AST_BENCH_FILES'] ?? 3000);
const ROUNDS = Number(process.env['AST_BENCH_ROUNDS'] ?? 5);


function filesContaining(dir: string, literal: string): number {
  let n = 0;
  const visit = (d: string): void => {
    for (const entry of readdirSync(d, { withFileTypes: true })) {
      const full = join(d, entry.name);
      if (entry.isDirectory()) visit(full);
      else if (readFileSync(full, 'utf8').includes(literal)) n++;
    }
  };
  visit(dir);
  return n;
}

async function cli(dir: string, pattern: string): Promise<number> {
  try {
    const { stdout } = await run(AST_GREP, ['run', '--pattern', pattern, '--lang', 'js', '--json=stream', '.'], {
      cwd: dir,
      maxBuffer: 512 * 1024 * 1024,
    });
    return stdout.split('\n').filter((l) => l.trim()).length;
  } catch (error) {
    const failed = error as { code?: number; stdout?: string };
    if (failed.code === 1) return 0;
    throw error;
  }
}

async function ours(registry: Registry, pattern: string): Promise<number> {
  const result = await registry.call('ast_grep', { pattern, language: 'javascript', max_results: 1 });
  if (result.isError) throw new Error(JSON.stringify(result.content));
  return (result.structured as { totalMatches: number }).totalMatches;
}



const root = mkdtempSync(join(tmpdir(), 'agent-tools-ast-bench-'));
try {
  const corpus = buildCorpus(root, FILES);
  const SELECTIVE = 'Object.freeze($X)';
  const NO_LITERAL = '$A === $A';
  // Not even an operator to prefilter on: every file is parsed.
  const NOTHING = '$F($X, $X)';
  const selectiveFiles = filesContaining(root, 'freeze');
  console.log(
    `Corpus: ${corpus.files} JavaScript files (${(corpus.bytes / 1e6).toFixed(1)} MB) from this workspace's node_modules; ` +
      `"freeze" appears in ${selectiveFiles} of them. ${ROUNDS} rounds, CLI and ours alternating; ours is a fresh loader ` +
      '(worker threads started, grammar loaded) for each first search.\n',
  );

  const before = await astBefore();
  const samples: Record<string, number[]> = {};
  const add = (label: string, ms: number): void => {
    samples[label] ??= [];
    samples[label].push(ms);
  };
  const counts = new Map<string, string>();
  for (let round = 0; round <= ROUNDS; round++) {
    const warmup = round === 0;
    for (const [name, pattern] of [
      ['selective', SELECTIVE],
      ['no literal', NO_LITERAL],
      ['no token at all', NOTHING],
    ] as const) {
      const theirs = await timed(() => cli(root, pattern));
      const firstAndAgain = async (ast: Pick<typeof import('@agent-tools/ast'), 'astTools' | 'createTreeSitterLoader'>) => {
        let loader: TreeSitterLoader = ast.createTreeSitterLoader();
        const registry = createRegistry({ resources: { cwd: root, treeSitter: loader }, factories: [ast.astTools] });
        const first = await timed(() => ours(registry, pattern));
        const again = await timed(() => ours(registry, pattern));
        await registry.dispose();
        loader = undefined as never;
        return { first, again };
      };
      // With a build to compare against, the two take turns going first.
      const earlier = before && round % 2 === 1 ? await firstAndAgain(before) : undefined;
      const { first, again } = await firstAndAgain({ astTools, createTreeSitterLoader });
      const then = before ? (earlier ?? (await firstAndAgain(before))) : undefined;
      counts.set(
        name,
        `${pattern}: ast-grep ${theirs.value} matches, ours ${first.value} (repeated: ${again.value})${then ? `, before ${then.first.value} (repeated: ${then.again.value})` : ''}`,
      );
      if (warmup) continue;
      add(`${name} \`${pattern}\`: ast-grep CLI`, theirs.ms);
      add(`${name} \`${pattern}\`: ast_grep, first search`, first.ms);
      add(`${name} \`${pattern}\`: ast_grep, same search repeated`, again.ms);
      if (then) {
        add(`${name} \`${pattern}\`: ast_grep before, first search`, then.first.ms);
        add(`${name} \`${pattern}\`: ast_grep before, same search repeated`, then.again.ms);
      }
    }
  }
  const timings = Object.entries(samples).map(([label, values]) => timing(label, values));
  console.log(timingTable(timings));
  const median = (label: string): number => timings.find((t) => t.label === label)?.medianMs ?? Number.NaN;
  const ratio = (a: string, b: string): string => (median(a) / median(b)).toFixed(2);
  console.log('');
  console.log(
    `selective: ours / CLI = ${ratio(`selective \`${SELECTIVE}\`: ast_grep, first search`, `selective \`${SELECTIVE}\`: ast-grep CLI`)} (target <= 1.0)`,
  );
  console.log(
    `no literal: ours / CLI = ${ratio(`no literal \`${NO_LITERAL}\`: ast_grep, first search`, `no literal \`${NO_LITERAL}\`: ast-grep CLI`)} (target <= 2.0)`,
  );
  console.log(
    `repeated: second / first = ${ratio(`no literal \`${NO_LITERAL}\`: ast_grep, same search repeated`, `no literal \`${NO_LITERAL}\`: ast_grep, first search`)} (target <= 0.25)`,
  );
  console.log(
    `no token at all: ours / CLI = ${ratio(`no token at all \`${NOTHING}\`: ast_grep, first search`, `no token at all \`${NOTHING}\`: ast-grep CLI`)}; repeated: second / first = ${ratio(`no token at all \`${NOTHING}\`: ast_grep, same search repeated`, `no token at all \`${NOTHING}\`: ast_grep, first search`)}`,
  );
  if (before) {
    for (const [name, pattern] of [
      ['selective', SELECTIVE],
      ['no literal', NO_LITERAL],
      ['no token at all', NOTHING],
    ] as const) {
      const label = (who: string) => `${name} \`${pattern}\`: ast_grep${who}, first search`;
      console.log(
        `${name}: before / CLI = ${ratio(label(' before'), `${name} \`${pattern}\`: ast-grep CLI`)}, after / CLI = ${ratio(label(''), `${name} \`${pattern}\`: ast-grep CLI`)}`,
      );
    }
  }
  console.log('');
  for (const line of counts.values()) console.log(`Matches: ${line}`);
} finally {
  rmSync(root, { recursive: true, force: true });
}
