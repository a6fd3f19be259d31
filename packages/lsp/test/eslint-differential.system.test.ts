import { execFileSync } from 'node:child_process';
import { cpSync, readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { seededRandom } from '@agent-tools/test-utils';
import { describe, expect, it } from 'vitest';
import { startRun } from './helpers.js';
import { ESLINT_CONFIG, ESLINT_PACKAGES, linkPackages, packageDir } from './lint-project.js';

// Differential against the reference: ESLint's own CLI. Real code nobody here wrote (zod 4's TypeScript sources, as
// its npm package ships them) linted by a real flat config (vscode-html-languageservice's); files drawn with a fixed
// seed. For each, the ESLint findings of `lsp diagnostics` (merged with tsserver's, told apart by source) must be
// those of `eslint --format json`: the same rule ids on the same lines, as multisets.
const SEED = 24_024;
const FILES = 24;

function tsFiles(dir: string, root: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return tsFiles(path, root);
    return e.name.endsWith('.ts') && !e.name.endsWith('.d.ts') ? [relative(root, path)] : [];
  });
}

function draw<T>(items: readonly T[], count: number, seed: number): T[] {
  const random = seededRandom(seed);
  const pool = [...items];
  const out: T[] = [];
  while (out.length < count && pool.length > 0) out.push(...pool.splice(Math.floor(random() * pool.length), 1));
  return out;
}

interface EslintFile {
  readonly filePath: string;
  readonly messages: ReadonlyArray<{ readonly ruleId: string | null; readonly line: number; readonly severity: number }>;
}

describe('ESLint findings of lsp diagnostics equal eslint --format json (rule ids and lines)', () => {
  it(`zod's sources, ${FILES} files drawn with seed ${SEED}`, { timeout: 900_000 }, async () => {
    await using run = startRun({ 'package.json': '{"type":"module"}', 'eslint.config.mjs': ESLINT_CONFIG }, {}, 30_000);
    cpSync(join(packageDir('zod'), 'src'), run.dir.join('src'), { recursive: true });
    linkPackages(run.dir.path, ESLINT_PACKAGES);
    const picked = draw(tsFiles(run.dir.join('src'), run.dir.path).sort(), FILES, SEED);

    const cli = JSON.parse(
      execFileSync(process.execPath, [join(run.dir.path, 'node_modules/eslint/bin/eslint.js'), '--format', 'json', ...picked], {
        cwd: run.dir.path,
        encoding: 'utf8',
        maxBuffer: 64 * 1024 * 1024,
      }).toString(),
    ) as EslintFile[];
    const expected = new Map(cli.map((f) => [relative(run.dir.path, f.filePath), f.messages.map((m) => `${m.line} ${m.ruleId ?? '(no rule)'}`).sort()]));

    let compared = 0;
    for (const file of picked) {
      const ours: string[] = [];
      for (let offset: number | undefined = 0; offset !== undefined; ) {
        const result = await run.lsp({ action: 'diagnostics', file, offset });
        const data = result.structured as { diagnostics: Array<{ source?: string; line: number; code?: string }>; next?: number; problems?: string[] };
        expect(data.problems, file).toBeUndefined();
        ours.push(...data.diagnostics.filter((d) => d.source === 'eslint').map((d) => `${d.line} ${d.code ?? '(no rule)'}`));
        offset = data.next;
      }
      expect(ours.sort(), file).toEqual(expected.get(file) ?? []);
      compared += ours.length;
    }
    // The drawn files must exercise the comparison, not agree on nothing.
    expect(compared).toBeGreaterThan(50);
  });
});
