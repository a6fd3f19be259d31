import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createRegistry, type Registry } from '@agent-tools/core';
import { createLspSupervisor, lspTools } from '@agent-tools/lsp';
import { timedWrite } from './lsp-write.js';
import { timing, timingTable } from './measure.js';

/**
 * lsp, diagnostics on write with ESLint beside tsserver: zod 4's TypeScript sources (from npm) linted by the real flat
 * config of vscode-html-languageservice (packages/lsp/test/fixtures/lint) with the project's own eslint and
 * typescript-eslint. The same write, timed as the write hook sees it (baseline, write, check), with TypeScript alone
 * (`additional: false`) and with TypeScript and ESLint merged, on warm servers. The writes alternate between the
 * original file and one with a function that breaks two lint rules and a type, so every write changes the findings.
 */
const require = createRequire(import.meta.url);
const here = dirname(fileURLToPath(import.meta.url));
const ZOD = join(dirname(require.resolve('zod/package.json')), 'src');
const CONFIG = readFileSync(join(here, '..', '..', '..', 'packages', 'lsp', 'test', 'fixtures', 'lint', 'eslint.config.mjs'), 'utf8');
const PACKAGES = ['eslint', '@typescript-eslint/parser', '@typescript-eslint/eslint-plugin', 'typescript'];
const FILE = 'src/v4/core/util.ts';
const RUNS = 9;

function project(): string {
  const dir = mkdtempSync(join(tmpdir(), 'agent-tools-lsp-bench-eslint-'));
  cpSync(ZOD, join(dir, 'src'), { recursive: true });
  writeFileSync(join(dir, 'package.json'), '{"type":"module"}');
  writeFileSync(join(dir, 'eslint.config.mjs'), CONFIG);
  writeFileSync(
    join(dir, 'tsconfig.json'),
    JSON.stringify({ compilerOptions: { target: 'es2022', module: 'nodenext', moduleResolution: 'nodenext', strict: true, noEmit: true, skipLibCheck: true }, include: ['src'] }),
  );
  for (const name of PACKAGES) {
    const target = join(dir, 'node_modules', name);
    mkdirSync(dirname(target), { recursive: true });
    symlinkSync(dirname(require.resolve(`${name}/package.json`)), target, 'dir');
  }
  return dir;
}

function run(cwd: string, eslint: boolean): Registry {
  const supervisor = createLspSupervisor({ cwd, additional: eslint ? ['eslint'] : false });
  return createRegistry({
    resources: { cwd, lspSupervisor: supervisor, diagnostics: supervisor },
    factories: [lspTools],
    diagnostics: { budgetMs: 20_000, dependents: false },
  });
}

/** One write of FILE as the hook sees it: baseline, write, check. */
function write(registry: Registry, cwd: string, content: string): Promise<{ ms: number; text: string }> {
  return timedWrite(registry, join(cwd, FILE), content);
}

const alone = project();
const withEslint = project();
const registries = { alone: run(alone, false), withEslint: run(withEslint, true) };
try {
  const original = readFileSync(join(alone, FILE), 'utf8');
  const broken = `${original}\nexport function lintBench(a: number): string {\n  if (a == 1) return "one";\n  return a;\n}\n`;
  const variants = [broken, original];
  // Warm: each server loads the project (and ESLint its config and parser), and the first writes take their baselines.
  for (const [name, registry] of Object.entries(registries)) {
    const cwd = name === 'alone' ? alone : withEslint;
    await registry.call('lsp', { action: 'diagnostics', file: FILE });
    for (const content of variants) await write(registry, cwd, content);
  }
  const samples = { alone: [] as number[], withEslint: [] as number[] };
  let lastText = '';
  // Alternating, so a slower minute of the machine falls on both.
  for (let i = 0; i < RUNS * 2; i++) {
    const content = variants[i % 2] as string;
    samples.alone.push((await write(registries.alone, alone, content)).ms);
    const result = await write(registries.withEslint, withEslint, content);
    samples.withEslint.push(result.ms);
    if (i % 2 === 0) lastText = result.text;
  }
  const a = timing('write of zod src/v4/core/util.ts (1293 lines), TypeScript alone', samples.alone);
  const b = timing('same write, TypeScript and ESLint merged', samples.withEslint);
  console.log(timingTable([a, b]));
  console.log(`\nratio at the median: ${(b.medianMs / a.medianMs).toFixed(2)}x (target <= 2x)`);
  console.log(`\na breaking write's report with ESLint, last run:\n${lastText}`);
} finally {
  await Promise.all(Object.values(registries).map((r) => r.dispose()));
  rmSync(alone, { recursive: true, force: true });
  rmSync(withEslint, { recursive: true, force: true });
}
