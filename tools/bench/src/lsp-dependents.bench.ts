import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { createRegistry, type Registry } from '@agent-tools/core';
import { createLspSupervisor, lspTools } from '@agent-tools/lsp';
import { timedWrite } from './lsp-write.js';
import { timing, timingTable } from './measure.js';

/**
 * lsp, diagnostics of a write's dependents on rxjs 7 (from npm): what a write costs with the new diagnostics of the
 * files importing the written one (28 files import `internal/util/isFunction.ts`), next to the same write with only
 * the written file checked, on warm servers. Each write is timed as the write hook sees it: baseline before
 * (`beforeWrite`), the write, the check after (`afterWrite`). The writes alternate between the original and a
 * signature that breaks every caller, so every second write adds errors to dependents and the next removes them.
 */
const require = createRequire(import.meta.url);
const RXJS = join(dirname(require.resolve('rxjs/package.json')), 'src');
const FILE = 'internal/util/isFunction.ts';
const RUNS = 9;

function project(): string {
  const dir = mkdtempSync(join(tmpdir(), 'agent-tools-lsp-bench-rxjs-'));
  cpSync(RXJS, dir, { recursive: true, filter: (src) => !/tsconfig.*\.json$/.test(src) });
  writeFileSync(
    join(dir, 'tsconfig.json'),
    JSON.stringify({ compilerOptions: { target: 'es2017', lib: ['es2018', 'dom'], module: 'commonjs', moduleResolution: 'node', strict: true, noEmit: true, skipLibCheck: true }, include: ['**/*.ts'] }),
  );
  return dir;
}

function run(cwd: string, dependents: boolean): Registry {
  const supervisor = createLspSupervisor({ cwd });
  return createRegistry({
    resources: { cwd, lspSupervisor: supervisor, diagnostics: supervisor },
    factories: [lspTools],
    diagnostics: { budgetMs: 10_000, ...(dependents ? { dependents: { budgetMs: 10_000 } } : { dependents: false }) },
  });
}

/** One write of FILE as the hook sees it: baseline, write, check. */
function write(registry: Registry, cwd: string, content: string): Promise<{ ms: number; text: string }> {
  return timedWrite(registry, join(cwd, FILE), content);
}


const alone = project();
const withDependents = project();
const registries = { alone: run(alone, false), withDependents: run(withDependents, true) };
try {
  const original = readFileSync(join(alone, FILE), 'utf8');
  const broken = original.replace('isFunction(value: any)', 'isFunction(value: any, strict: boolean)');
  const variants = [broken, original];
  // Warm: each server loads the project and the first writes take their baselines.
  for (const [name, registry] of Object.entries(registries)) {
    const cwd = name === 'alone' ? alone : withDependents;
    await registry.call('lsp', { action: 'diagnostics', file: FILE });
    for (const content of variants) await write(registry, cwd, content);
  }
  const samples = { alone: [] as number[], withDependents: [] as number[] };
  let lastText = '';
  // Alternating, so a slower minute of the machine falls on both.
  for (let i = 0; i < RUNS * 2; i++) {
    const content = variants[i % 2] as string;
    samples.alone.push((await write(registries.alone, alone, content)).ms);
    const result = await write(registries.withDependents, withDependents, content);
    samples.withDependents.push(result.ms);
    if (i % 2 === 0) lastText = result.text;
  }
  console.log(
    timingTable([
      timing('write of isFunction.ts, the written file checked (dependents off)', samples.alone),
      timing('same write, and the 28 files importing it checked', samples.withDependents),
    ]),
  );
  console.log(`\nadded at the median: ${(timing('', samples.withDependents).medianMs - timing('', samples.alone).medianMs).toFixed(1)} ms`);
  console.log(`\na breaking write's report, last run:\n${lastText.split('\n').slice(-1).join('\n')}`);
} finally {
  await Promise.all(Object.values(registries).map((r) => r.dispose()));
  rmSync(alone, { recursive: true, force: true });
  rmSync(withDependents, { recursive: true, force: true });
}
