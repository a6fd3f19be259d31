import { spawn, spawnSync } from 'node:child_process';
import { copyFileSync, cpSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createRegistry } from '@agent-tools/core';
import { createLspSupervisor, lspTools } from '@agent-tools/lsp';
import { type Timing, timed, timing, timingTable } from './measure.js';

/**
 * Start-up: whole processes of `node tools/agent-tools/dist/cli.js`, from the spawn to the exit after the first
 * answer, for `list`, `call ast_grep` and `call lsp` (hover), each side by side with a reference in the same rounds
 * (A B A B ...):
 *   - `list` against a bare `node -e 0`: the floor any Node program pays; likewise the first answer of `tools/list`
 *     from `agent-tools mcp` over stdio (initialize first);
 *   - `call ast_grep` on requests (Debian's python3-requests, 18 files, real code nobody here wrote) against the
 *     ast-grep CLI (@ast-grep/cli) searching the same files for the same pattern;
 *   - `call lsp` hover on a copy of the harness's sample project against the same cold start inside an already
 *     loaded process (a fresh language-server supervisor, nothing else): the difference is the process start-up.
 * Medians of STARTUP_BENCH_ROUNDS rounds (default 7) after one unmeasured round.
 */
const require = createRequire(import.meta.url);
const AST_GREP = join(dirname(require.resolve('@ast-grep/cli/package.json')), 'ast-grep');
/** STARTUP_BENCH_CLI: another build of the CLI (an older checkout's), to measure before and after. */
const CLI = process.env['STARTUP_BENCH_CLI'] ?? join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'agent-tools', 'dist', 'cli.js');
const SAMPLE = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'agent-tools', 'sample');
const REQUESTS = '/usr/lib/python3/dist-packages/requests';
const ROUNDS = Number(process.env['STARTUP_BENCH_ROUNDS'] ?? 7);
const PATTERN = 'def $F($$$A): $$$B';
const HOVER = { action: 'hover', file: 'src/report.ts', line: 5, symbol: 'lowStock' };

/** Runs a command to its exit and returns its wall time; throws when it fails (or, for an answer, says nothing). */
function wall(command: string, args: readonly string[], cwd: string, answers = true): number {
  const started = performance.now();
  const run = spawnSync(command, args, { cwd, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  const ms = performance.now() - started;
  if (run.status !== 0 || (answers && !run.stdout)) throw new Error(`${command} ${args.join(' ')} failed (${run.status}): ${run.stderr}`);
  return ms;
}

/** `agent-tools mcp` over stdio: from the spawn to the answer of `tools/list` (initialize first), then its exit. */
function mcpList(cwd: string): Promise<number> {
  const started = performance.now();
  const server = spawn(process.execPath, [CLI, 'mcp', '--cwd', cwd], { stdio: ['pipe', 'pipe', 'ignore'] });
  const messages = [
    { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'bench', version: '1' } } },
    { jsonrpc: '2.0', method: 'notifications/initialized' },
    { jsonrpc: '2.0', id: 2, method: 'tools/list' },
  ];
  server.stdin.write(messages.map((m) => `${JSON.stringify(m)}\n`).join(''));
  return new Promise((resolve, reject) => {
    let out = '';
    let answered: number | undefined;
    server.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const lines = out.split('\n');
      out = lines.pop() ?? '';
      for (const line of lines) {
        const message = JSON.parse(line) as { id?: number; result?: { tools?: unknown[] } };
        if (answered === undefined && message.id === 2 && (message.result?.tools?.length ?? 0) > 0) {
          answered = performance.now() - started;
          server.stdin.end();
        }
      }
    });
    server.on('error', reject);
    server.on('close', () => (answered === undefined ? reject(new Error(`no tools/list answer: ${out.slice(0, 500)}`)) : resolve(answered)));
  });
}

/** A and B in turn, one unmeasured round first; the medians of each. */
async function sideBySide(
  a: { label: string; run: () => number | Promise<number> },
  b: { label: string; run: () => number | Promise<number> },
): Promise<Timing[]> {
  await a.run();
  await b.run();
  const as: number[] = [];
  const bs: number[] = [];
  for (let i = 0; i < ROUNDS; i++) {
    as.push(await a.run());
    bs.push(await b.run());
  }
  return [timing(a.label, as), timing(b.label, bs)];
}

const requests = mkdtempSync(join(tmpdir(), 'agent-tools-startup-requests-'));
const sample = mkdtempSync(join(tmpdir(), 'agent-tools-startup-sample-'));
try {
  const files = readdirSync(REQUESTS).filter((f) => f.endsWith('.py'));
  for (const file of files) copyFileSync(join(REQUESTS, file), join(requests, file));
  cpSync(SAMPLE, sample, { recursive: true });
  const cli = (...args: string[]): number => wall(process.execPath, [CLI, ...args], sample);
  const timings: Timing[] = [
    ...(await sideBySide(
      { label: 'agent-tools list (whole process)', run: () => cli('list') },
      { label: 'reference: node -e 0 (whole process)', run: () => wall(process.execPath, ['-e', '0'], sample, false) },
    )),
    ...(await sideBySide(
      { label: 'agent-tools mcp (stdio): first answer of tools/list', run: () => mcpList(sample) },
      { label: 'reference: node -e 0 (whole process)', run: () => wall(process.execPath, ['-e', '0'], sample, false) },
    )),
    ...(await sideBySide(
      {
        label: `agent-tools call ast_grep on requests (${files.length} files, whole process)`,
        run: () => wall(process.execPath, [CLI, 'call', 'ast_grep', JSON.stringify({ pattern: PATTERN, language: 'python' })], requests),
      },
      {
        label: 'reference: ast-grep CLI, same pattern and files (whole process)',
        run: () => wall(AST_GREP, ['run', '--pattern', PATTERN, '--lang', 'python', '.'], requests),
      },
    )),
    ...(await sideBySide(
      { label: 'agent-tools call lsp hover, TypeScript (whole process)', run: () => cli('call', 'lsp', JSON.stringify(HOVER)) },
      {
        label: 'reference: the same cold hover in a loaded process (fresh supervisor)',
        run: async () => {
          const supervisor = createLspSupervisor({ cwd: sample });
          const registry = createRegistry({ resources: { cwd: sample, lspSupervisor: supervisor }, factories: [lspTools] });
          try {
            const { ms, value } = await timed(() => registry.call('lsp', HOVER));
            if (value.isError) throw new Error(JSON.stringify(value.content));
            return ms;
          } finally {
            await registry.dispose();
          }
        },
      },
    )),
  ];
  console.log(timingTable(timings));
} finally {
  rmSync(requests, { recursive: true, force: true });
  rmSync(sample, { recursive: true, force: true });
}
