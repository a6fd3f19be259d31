import { existsSync, writeFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { type Run, startRun, text } from './helpers.js';
import { ESLINT_CONFIG, ESLINT_PACKAGES, linkPackages } from './lint-project.js';

// The real flat config of test/fixtures/lint, made slow to load: it waits, at load time, until the test creates the
// file `gate`. That is ESLint loading a heavy configuration (typed linting of a large project) for as long as the
// test needs, without a timing assumption: tsserver answers the write while ESLint cannot.
const GATED_CONFIG = `import { existsSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
while (!existsSync(new URL('./gate', import.meta.url))) await sleep(50);
${ESLINT_CONFIG}`;

const files = {
  'package.json': '{"type":"module"}',
  'tsconfig.json': JSON.stringify({ compilerOptions: { target: 'ES2022', module: 'NodeNext', moduleResolution: 'NodeNext', strict: true, noEmit: true }, include: ['src'] }),
  'eslint.config.mjs': GATED_CONFIG,
  'src/clean.ts': 'export function twice(n: number): number {\n  return n * 2;\n}\n',
};

const broken = 'export function half(n: number): number {\n  if (n == 0) {\n    return 0;\n  }\n  const s: string = n;\n  return n / 2;\n}\n';
const TS_ERROR = "5:9 error TS2322: Type 'number' is not assignable to type 'string'. [typescript]";
const LINT_WARNING = "2:9 warning eqeqeq: Expected '===' and instead saw '=='. [eslint]";

describe('an ESLint that has not answered never holds back tsserver (real servers, a configuration slow to load)', () => {
  let run: Run;
  beforeAll(() => {
    // A budget a loaded machine's tsserver meets; ESLint cannot, whatever the budget, until the gate opens. Its late
    // answers are awaited for as long as the tests keep the gate closed (two writes, one with a baseline first).
    run = startRun(files, { lateDiagnosticsMs: 180_000 }, 20_000);
    linkPackages(run.dir.path, ESLINT_PACKAGES);
  });
  afterAll(async () => {
    await run[Symbol.asyncDispose]();
  });

  it("reports tsserver's type error on the write, and names eslint as pending in the first line with the call to get it", async () => {
    const written = text(await run.call('write', { path: 'src/half.ts', content: broken }));
    const lines = written.split('\n');
    expect(lines[0]).toBe('Wrote src/half.ts.');
    expect(lines[1], written).toBe(
      'INCOMPLETE: diagnostics of src/half.ts from eslint are still pending (no answer within 20 s); they will be appended to a later result, or call lsp with action "diagnostics" and file "src/half.ts" to get them now. The diagnostics below are from the other checkers only.',
    );
    expect(lines.slice(2)).toEqual(['New diagnostics in src/half.ts (1):', `  ${TS_ERROR}`]);
    expect(existsSync(run.dir.join('gate'))).toBe(false);
  });

  it('on an existing file, takes the baseline of tsserver alone and reports its new error as new', async () => {
    const written = text(await run.call('write', { path: 'src/clean.ts', content: broken.replace('half', 'twice') }));
    expect(written.split('\n')[1]).toContain('INCOMPLETE: diagnostics of src/clean.ts from eslint are still pending');
    expect(written).toContain(`New diagnostics in src/clean.ts (1):\n  ${TS_ERROR}`);
  });

  it("gets eslint's part from the diagnostics call once it can answer, and from the write's late diagnostics", async () => {
    writeFileSync(run.dir.join('gate'), '');
    const result = text(await run.lsp({ action: 'diagnostics', file: 'src/half.ts' }));
    expect(result).toContain('src/half.ts: 1 error, 1 warning (checked by typescript-language-server, eslint).');
    expect(result).toContain(`  ${LINT_WARNING}`);
    expect(result).toContain(`  ${TS_ERROR}`);
    expect(result).not.toContain('INCOMPLETE');
    // The writes' pending parts arrive too, appended to the next result of the run: this one, or a later one.
    let seen = result;
    await vi.waitFor(
      async () => {
        if (run.registry.notices.pending() > 0) seen += text(await run.lsp({ action: 'status' }));
        expect(seen).toContain(`Late diagnostics from an earlier write:\nNew diagnostics in src/half.ts, from eslint (1):\n  ${LINT_WARNING}`);
        // ESLint's diagnostics of the existing file before the write never came: listed, not called new.
        expect(seen).toContain(
          `Diagnostics of src/clean.ts from eslint from before the write were not known in time, so which are new cannot be told; eslint reports 1 now:\n  ${LINT_WARNING}`,
        );
      },
      { timeout: 60_000, interval: 200 },
    );
  });

  it("has eslint's late findings in the ledger: the next writes report nothing new from either server", async () => {
    const again = text(await run.call('write', { path: 'src/half.ts', content: broken.replace('n / 2', 'n / 4') }));
    expect(again).toBe('Wrote src/half.ts.\nNo new diagnostics in src/half.ts.');
    const clean = text(await run.call('write', { path: 'src/clean.ts', content: broken.replace('half', 'twice').replace('n / 2', 'n / 4') }));
    expect(clean).toBe('Wrote src/clean.ts.\nNo new diagnostics in src/clean.ts.');
  });
});
