import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createRegistry, type Registry } from '@agent-tools/core';
import { builtinServers, createLspSupervisor, type LspSupervisorOptions, lspTools } from '@agent-tools/lsp';
import { measure, type Timing, timingTable } from './measure.js';

/**
 * lsp: on a copy of the harness's sample project (TypeScript and Python, no node_modules), with warm servers:
 * what diagnostics-on-write adds to a write, hover/definition/references latency, cold start to the first
 * answer, and the whole-project check. The reference for diagnostics is a generic client that waits for the
 * server's pushed diagnostics, which is what typescript-language-server offers by itself.
 */
const SAMPLE = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'agent-tools', 'sample');

function project(): string {
  const dir = mkdtempSync(join(tmpdir(), 'agent-tools-lsp-bench-'));
  cpSync(SAMPLE, dir, { recursive: true });
  return dir;
}

function run(cwd: string, options: Partial<LspSupervisorOptions> = {}): Registry {
  const supervisor = createLspSupervisor({ cwd, ...options });
  return createRegistry({ resources: { cwd, lspSupervisor: supervisor, diagnostics: supervisor }, factories: [lspTools], diagnostics: { budgetMs: 10_000 } });
}

async function call(registry: Registry, args: Record<string, unknown>): Promise<void> {
  const result = await registry.call('lsp', args);
  if (result.isError) throw new Error(JSON.stringify(result.content));
}

/** Times only what the diagnostics hook adds: the file is written first, then the hook syncs and waits. */
function writeCheck(registry: Registry, cwd: string, file: string, variants: readonly string[]): () => Promise<void> {
  let n = 0;
  const path = join(cwd, file);
  return async () => {
    const content = variants[n++ % variants.length] as string;
    writeFileSync(path, content);
    const started = performance.now();
    const report = await registry.diagnostics.afterWrite([path]);
    const elapsed = performance.now() - started;
    if (report.files[0]?.state !== 'checked') throw new Error(`not checked: ${report.text}`);
    added.push(elapsed);
  };
}
const added: number[] = [];

/** measure() times the whole task; for writes only the hook's share counts, so the samples are taken inside. */
async function measureAdded(label: string, task: () => Promise<void>, runs: number): Promise<Timing> {
  await task();
  added.length = 0;
  for (let i = 0; i < runs; i++) await task();
  const sorted = [...added].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  const median = sorted.length % 2 ? (sorted[mid] as number) : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
  return { label, runs, medianMs: median, minMs: sorted[0] as number, maxMs: sorted[sorted.length - 1] as number };
}

const dirs: string[] = [];
const registries: Registry[] = [];
try {
  const timings: Timing[] = [];

  // Cold start: a fresh supervisor each run, from nothing to the first hover answer.
  timings.push(
    await measure(
      'cold start to first answer, TypeScript (hover)',
      async () => {
        const cwd = project();
        const registry = run(cwd);
        try {
          await call(registry, { action: 'hover', file: 'src/report.ts', line: 5, symbol: 'lowStock' });
        } finally {
          await registry.dispose();
          rmSync(cwd, { recursive: true, force: true });
        }
      },
      3,
      0,
    ),
  );
  timings.push(
    await measure(
      'cold start to first answer, Python (hover)',
      async () => {
        const cwd = project();
        const registry = run(cwd);
        try {
          await call(registry, { action: 'hover', file: 'py/stats.py', line: 25, symbol: 'mean_quantity' });
        } finally {
          await registry.dispose();
          rmSync(cwd, { recursive: true, force: true });
        }
      },
      3,
      0,
    ),
  );

  const cwd = project();
  dirs.push(cwd);
  const warm = run(cwd);
  registries.push(warm);
  const ts = { file: 'src/report.ts', line: 5, symbol: 'lowStock' };
  const py = { file: 'py/stats.py', line: 25, symbol: 'mean_quantity' };
  for (const action of ['hover', 'definition', 'references'] as const) {
    timings.push(await measure(`warm ${action}, TypeScript`, () => call(warm, { action, ...ts }), 9, 2));
  }
  for (const action of ['hover', 'definition', 'references'] as const) {
    timings.push(await measure(`warm ${action}, Python`, () => call(warm, { action, ...py }), 9, 2));
  }

  const report = readFileSync(join(cwd, 'src/report.ts'), 'utf8');
  const tsVariants = [report, report.replace('const value = ', 'const value: number = '), `${report}\n// touched\n`];
  timings.push(await measureAdded('diagnostics-on-write added to a write, TypeScript (target ≤ 400)', writeCheck(warm, cwd, 'src/report.ts', tsVariants), 9));
  const stats = readFileSync(join(cwd, 'py/stats.py'), 'utf8');
  const pyVariants = [stats, stats.replace('return total / len(levels)', 'return str(total)'), `${stats}\n# touched\n`];
  timings.push(await measureAdded('diagnostics-on-write added to a write, Python (target ≤ 300)', writeCheck(warm, cwd, 'py/stats.py', pyVariants), 9));

  // Reference: the same TypeScript server, diagnostics taken from its pushes (debounced, no version).
  const pushCwd = project();
  dirs.push(pushCwd);
  const { pullDiagnostics: _, ...pushOnly } = builtinServers.typescript;
  const push = run(pushCwd, { servers: [{ ...pushOnly, id: 'typescript' }] });
  registries.push(push);
  await call(push, { action: 'hover', ...ts });
  const pushReport = readFileSync(join(pushCwd, 'src/report.ts'), 'utf8');
  const pushVariants = [pushReport, pushReport.replace('const value = ', 'const value: number = '), `${pushReport}\n// touched\n`];
  timings.push(await measureAdded('reference: same, waiting for pushed diagnostics (generic client)', writeCheck(push, pushCwd, 'src/report.ts', pushVariants), 9));

  timings.push(await measure('diagnostics "*" (tsc --noEmit and pyright CLI)', () => call(warm, { action: 'diagnostics', file: '*' }), 3, 0));
  console.log(timingTable(timings));
} finally {
  await Promise.all(registries.map((r) => r.dispose()));
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
}
