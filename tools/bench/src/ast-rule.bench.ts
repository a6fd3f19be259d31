import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { astTools, createTreeSitterLoader } from '@agent-tools/ast';
import { createRegistry, type Registry } from '@agent-tools/core';
import { astBefore } from './ast-before.js';
import { buildCorpus } from './js-corpus.js';
import { timed, timing, timingTable } from './measure.js';

/**
 * ast rules: ast_grep with a rule of `inside` + `not has` against `ast-grep scan --inline-rules` on the corpus of
 * the ast benchmark (the first AST_BENCH_FILES JavaScript files under 100 KB of this workspace's node_modules),
 * rounds alternating between the CLI and ours; ours: a fresh loader for each first search, then the same search
 * again (cached trees). Targets: first search <= 1.5x the CLI, repeated <= 0.25x the first.
 *   - selective: `JSON.parse($X)` inside a function declaration that has no `try` anywhere in it (the pattern's
 *     identifiers rule most files out unparsed);
 *   - by kind only: `if` statements inside a function declaration with no `else` (every file is parsed).
 */
const run = promisify(execFile);
const require = createRequire(import.meta.url);
const AST_GREP = join(dirname(require.resolve('@ast-grep/cli/package.json')), 'ast-grep');
const FILES = Number(process.env['AST_BENCH_FILES'] ?? 3000);
const ROUNDS = Number(process.env['AST_BENCH_ROUNDS'] ?? 5);

const RULES = {
  selective: {
    pattern: 'JSON.parse($X)',
    inside: { kind: 'function_declaration', stopBy: 'end', not: { has: { kind: 'try_statement', stopBy: 'end' } } },
  },
  'by kind only': {
    kind: 'if_statement',
    inside: { kind: 'function_declaration', stopBy: 'end' },
    not: { has: { kind: 'else_clause' } },
  },
} as const;


async function cli(dir: string, rule: object): Promise<number> {
  const config = JSON.stringify({ id: 'bench', language: 'javascript', rule });
  try {
    const { stdout } = await run(AST_GREP, ['scan', '--inline-rules', config, '--json=stream', '.'], { cwd: dir, maxBuffer: 512 * 1024 * 1024 });
    return stdout.split('\n').filter((l) => l.trim()).length;
  } catch (error) {
    const failed = error as { code?: number };
    if (failed.code === 1) return 0;
    throw error;
  }
}

async function ours(registry: Registry, rule: object): Promise<number> {
  const result = await registry.call('ast_grep', { rule: JSON.stringify(rule), language: 'javascript', max_results: 1 });
  if (result.isError) throw new Error(JSON.stringify(result.content));
  return (result.structured as { totalMatches: number }).totalMatches;
}



const root = mkdtempSync(join(tmpdir(), 'agent-tools-ast-rule-bench-'));
try {
  const corpus = buildCorpus(root, FILES);
  console.log(
    `Corpus: ${corpus.files} JavaScript files (${(corpus.bytes / 1e6).toFixed(1)} MB) from this workspace's node_modules. ${ROUNDS} rounds, CLI and ours alternating; ours is a fresh loader for each first search.\n`,
  );
  const before = await astBefore();
  const samples: Record<string, number[]> = {};
  const counts = new Map<string, string>();
  for (let round = 0; round <= ROUNDS; round++) {
    for (const [name, rule] of Object.entries(RULES)) {
      const theirs = await timed(() => cli(root, rule));
      const firstAndAgain = async (ast: Pick<typeof import('@agent-tools/ast'), 'astTools' | 'createTreeSitterLoader'>) => {
        const loader = ast.createTreeSitterLoader();
        const registry = createRegistry({ resources: { cwd: root, treeSitter: loader }, factories: [ast.astTools] });
        const first = await timed(() => ours(registry, rule));
        const again = await timed(() => ours(registry, rule));
        await registry.dispose();
        return { first, again };
      };
      // With a build to compare against, the two take turns going first.
      const earlier = before && round % 2 === 1 ? await firstAndAgain(before) : undefined;
      const { first, again } = await firstAndAgain({ astTools, createTreeSitterLoader });
      const then = before ? (earlier ?? (await firstAndAgain(before))) : undefined;
      counts.set(
        name,
        `${name}: ast-grep ${theirs.value} matches, ours ${first.value} (repeated: ${again.value})${then ? `, before ${then.first.value} (repeated: ${then.again.value})` : ''}`,
      );
      if (round === 0) continue; // warm-up: file system caches
      for (const [label, ms] of [
        [`${name}: ast-grep scan`, theirs.ms],
        [`${name}: ast_grep, first search`, first.ms],
        [`${name}: ast_grep, same search repeated`, again.ms],
        ...(then
          ? ([
              [`${name}: ast_grep before, first search`, then.first.ms],
              [`${name}: ast_grep before, same search repeated`, then.again.ms],
            ] as const)
          : []),
      ] as const) {
        samples[label] ??= [];
        samples[label].push(ms);
      }
    }
  }
  const timings = Object.entries(samples).map(([label, values]) => timing(label, values));
  console.log(timingTable(timings));
  const median = (label: string): number => timings.find((t) => t.label === label)?.medianMs ?? Number.NaN;
  console.log('');
  for (const name of Object.keys(RULES)) {
    const first = median(`${name}: ast_grep, first search`);
    console.log(
      `${name}: ours / CLI = ${(first / median(`${name}: ast-grep scan`)).toFixed(2)} (target <= 1.5); repeated / first = ${(median(`${name}: ast_grep, same search repeated`) / first).toFixed(2)} (target <= 0.25)`,
    );
  }
  if (before) {
    for (const name of Object.keys(RULES)) {
      console.log(
        `${name}: before / CLI = ${(median(`${name}: ast_grep before, first search`) / median(`${name}: ast-grep scan`)).toFixed(2)}; repeated / first before = ${(median(`${name}: ast_grep before, same search repeated`) / median(`${name}: ast_grep before, first search`)).toFixed(2)}`,
      );
    }
  }
  for (const line of counts.values()) console.log(`Matches: ${line}`);
} finally {
  rmSync(root, { recursive: true, force: true });
}
